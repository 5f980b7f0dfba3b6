package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recipe whose .java reward calls System.exit on every third call it gets: the run trains its 2
 * steps and exits 0, the exits counted as reward errors in the end-of-run summary, and no reward
 * worker outlives it.
 */
class RewardWorkerRunTest {
  static final String EXITER =
      """
      package com.example;

      public final class Exiter implements dev.javelin.rewards.RewardFunction {
        private int calls;
        @Override public String name() { return "exiter"; }
        @Override public dev.javelin.rewards.RewardResult score(dev.javelin.rewards.RewardInput in) {
          if (++calls % 3 == 0) {
            System.exit(0);
          }
          return dev.javelin.rewards.RewardResult.of(1);
        }
      }
      """;

  @TempDir Path tmp;

  @Test
  void aRewardThatCallsSystemExitCostsCountedErrorsNotTheRun() throws Exception {
    Path src = Files.writeString(tmp.resolve("Exiter.java"), EXITER);
    Path dir = tmp.resolve("run");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
    int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
    long t0 = System.nanoTime();
    int code =
        Main.run(
            TinyRecipe.runArgs(
                dir,
                2,
                "custom_reward_function.path=" + src,
                "custom_reward_function.name=com.example.Exiter",
                "reward.max_error_rate=1",
                "reward.workers.num=2",
                "reward.workers.heap=64m"),
            ps,
            ps);
    double seconds = (System.nanoTime() - t0) / 1e9;
    String all = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, all);
    String metrics = Files.readString(dir.resolve("metrics.jsonl"));
    assertTrue(metrics.contains("\"step\":2"), metrics);
    Matcher summary =
        Pattern.compile("reward calls: (\\d+), errors: (\\d+), timeouts: 0").matcher(all);
    assertTrue(summary.find(), all);
    int calls = Integer.parseInt(summary.group(1));
    int errors = Integer.parseInt(summary.group(2));
    assertTrue(errors > 0 && errors < calls, all);
    assertTrue(all.contains("System.exit"), all);
    assertTrue(seconds < 120, "took " + seconds + " s");
    long until = System.nanoTime() + 10_000_000_000L;
    while (ProcessHandle.current().descendants().findAny().isPresent()) {
      assertTrue(System.nanoTime() < until, "reward workers outlived the run");
      Thread.sleep(50);
    }
    int threadsAfter = ManagementFactory.getThreadMXBean().getThreadCount();
    assertTrue(threadsAfter <= threadsBefore + 16, threadsBefore + " -> " + threadsAfter);
  }
}
