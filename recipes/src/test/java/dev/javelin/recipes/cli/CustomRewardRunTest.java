package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A reward from a .java file named in the recipe trains in local mode; a broken one exits 2. */
class CustomRewardRunTest {
  static final String REWARD =
      """
      package com.example;

      public final class LengthPenalty implements dev.javelin.rewards.RewardFunction {
        private final double scale;
        public LengthPenalty(java.util.Map<String, Object> kwargs) {
          scale = dev.javelin.rewards.RewardKwargs.of("length_penalty", kwargs, "scale")
              .getDouble("scale", 1e-3);
        }
        @Override public String name() { return "length_penalty"; }
        @Override public dev.javelin.rewards.RewardResult score(dev.javelin.rewards.RewardInput in) {
          return dev.javelin.rewards.RewardResult.of(-scale * in.response().length());
        }
      }
      """;

  @TempDir Path tmp;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Main.run(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void javaFileRewardTrainsAndCompileErrorsExitTwo() throws Exception {
    Path src = tmp.resolve("LengthPenalty.java");
    Files.writeString(src, REWARD);
    Path dir = tmp.resolve("run");
    int code =
        run(
            TinyRecipe.runArgs(
                dir,
                1,
                "custom_reward_function.path=" + src,
                "custom_reward_function.name=com.example.LengthPenalty",
                "custom_reward_function.reward_kwargs={scale: 0.5}"));
    String all = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, all);
    String metrics = Files.readString(dir.resolve("metrics.jsonl"));
    assertTrue(metrics.contains("\"step\":1"), metrics);
    // Every response scores -0.5 per character: the batch mean is negative.
    assertTrue(metrics.matches("(?s).*\"critic/score/mean\":-[0-9.]+.*"), metrics);
    // Its scores are no accuracies: printed under the reward's own name, never as a percentage.
    assertTrue(metrics.contains("/reward/mean@1\":-"), metrics);
    assertFalse(metrics.contains("/acc/"), metrics);
    assertTrue(all.contains("held-out greedy reward: -1.500 at start"), all);
    assertFalse(all.contains("accuracy") || all.contains("acc -"), all);

    Files.writeString(src, REWARD.replace("scale = ", "scale == "));
    err.reset();
    code = run(TinyRecipe.runArgs(tmp.resolve("run2"), 1, "custom_reward_function.path=" + src));
    String msg = err.toString(StandardCharsets.UTF_8);
    assertEquals(2, code, msg);
    assertTrue(msg.contains(src + ":6: "), msg);
    assertTrue(msg.startsWith("javelin: custom_reward_function.path: " + src), msg);
    assertFalse(msg.lines().anyMatch(l -> l.matches("^\\s+at [a-z].*")), msg);
  }
}
