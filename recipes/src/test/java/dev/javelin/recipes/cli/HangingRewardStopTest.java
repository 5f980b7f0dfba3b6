package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reward whose every call hangs: a step costs about the batch time limit (not one call limit per
 * call), and a stop signal stops the run within seconds with a checkpoint, exit code 1.
 */
class HangingRewardStopTest {
  static final String SLEEPER =
      """
      package com.example;

      public final class Sleeper implements dev.javelin.rewards.RewardFunction {
        public Sleeper(java.util.Map<String, Object> kwargs) {}
        @Override public String name() { return "sleeper"; }
        @Override public dev.javelin.rewards.RewardResult score(dev.javelin.rewards.RewardInput in) {
          try {
            Thread.sleep(600_000);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return dev.javelin.rewards.RewardResult.of(0);
        }
      }
      """;

  @TempDir Path tmp;

  @Test
  void hangingCallsCostTheLimitOnceAndAStopSignalEndsItWithinSeconds() throws Exception {
    Path src = Files.writeString(tmp.resolve("Sleeper.java"), SLEEPER);
    Path dir = tmp.resolve("run");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String[] args =
        TinyRecipe.runArgs(
            dir,
            50,
            "custom_reward_function.path=" + src,
            "custom_reward_function.name=com.example.Sleeper",
            "reward.timeout_s=1",
            "reward.batch_timeout_s=2",
            "reward.max_error_rate=1", // every call times out: keep going until stopped
            "actor_rollout_ref.rollout.n=8");
    CompletableFuture<Integer> run =
        CompletableFuture.supplyAsync(
            () -> {
              PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
              return Main.run(args, ps, ps);
            });
    Path metrics = dir.resolve("metrics.jsonl");
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (!(Files.exists(metrics) && Files.readString(metrics).contains("\"step\":1,"))) {
      assertTrue(System.nanoTime() < until && !run.isDone(), out.toString(StandardCharsets.UTF_8));
      Thread.sleep(50);
    }
    // 32 hanging calls on the 2-thread pool took 16 s when they waited in turn.
    Matcher reward =
        Pattern.compile("\"timing_s/reward\":([0-9.]+)").matcher(Files.readString(metrics));
    assertTrue(reward.find(), Files.readString(metrics));
    double rewardSeconds = Double.parseDouble(reward.group(1));
    assertTrue(rewardSeconds < 3.5, "scoring 32 hanging calls took " + rewardSeconds + " s");

    long t0 = System.nanoTime();
    // A real SIGTERM to this JVM: the handler Ctrl-C's SIGINT runs (SignalLaunchTest sends that
    // one to a process of its own), and one a JVM started as a background job still receives.
    Process kill =
        new ProcessBuilder("kill", "-TERM", Long.toString(ProcessHandle.current().pid()))
            .inheritIO()
            .start();
    assertEquals(0, kill.waitFor());
    int code = run.get(20, TimeUnit.SECONDS);
    double stopSeconds = (System.nanoTime() - t0) / 1e9;
    String all = out.toString(StandardCharsets.UTF_8);
    assertEquals(1, code, all);
    assertTrue(stopSeconds < 6, "the stop took " + stopSeconds + " s to stop the run\n" + all);
    try (var ckpts = Files.list(dir)) {
      assertTrue(ckpts.anyMatch(p -> p.getFileName().toString().startsWith("global_step_")), all);
    }
  }
}
