package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's records follow its checkpoints (each step once, whatever a kill left behind, and the run
 * says what it dropped), and a reward that keeps failing stops the run with one line.
 */
class RunRecordsTest {
  private static final Pattern STEP = Pattern.compile("^\\{\"step\":(\\d+)[,}]");
  @TempDir Path tmp;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    out.reset();
    err.reset();
    return Main.run(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String printed() {
    return out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
  }

  private static List<Integer> steps(Path file) throws Exception {
    return Files.readAllLines(file).stream()
        .map(STEP::matcher)
        .filter(Matcher::find)
        .map(m -> Integer.parseInt(m.group(1)))
        .toList();
  }

  private static void append(Path file, String... lines) throws Exception {
    Files.write(file, List.of(lines), StandardOpenOption.APPEND);
  }

  @Test
  void linesPastTheCheckpointAreDroppedOnceAndSaid() throws Exception {
    Path dir = tmp.resolve("run");
    assertEquals(0, run(TinyRecipe.runArgs(dir, 2, "trainer.save_freq=1")), printed());
    assertTrue(printed().contains("reward calls: "), printed());
    assertTrue(printed().contains(", errors: 0, timeouts: 0"), printed());
    // As a kill after step 4 leaves them: lines of steps 3 and 4, no checkpoint past step 2.
    append(dir.resolve("metrics.jsonl"), "{\"step\":3}", "{\"step\":4}");
    append(dir.resolve("batches.jsonl"), "{\"step\":3,\"epoch\":0,\"ids\":[]}");
    assertEquals(0, run(TinyRecipe.runArgs(dir, 4, "trainer.save_freq=1")), printed());
    assertTrue(
        printed().contains("metrics.jsonl had 2 line(s) up to step 4 that no checkpoint covers"),
        printed());
    assertEquals(List.of(0, 1, 2, 3, 4), steps(dir.resolve("metrics.jsonl")));
    assertEquals(List.of(1, 2, 3, 4), steps(dir.resolve("batches.jsonl")));
  }

  @Test
  void aKillBeforeTheFirstCheckpointLeavesNoDoubledSteps() throws Exception {
    Path dir = tmp.resolve("early");
    Files.createDirectories(dir);
    Files.write(dir.resolve("metrics.jsonl"), List.of("{\"step\":1}", "{\"step\":2}"));
    assertEquals(0, run(TinyRecipe.runArgs(dir, 1)), printed());
    assertTrue(printed().contains("starting from step 0 (no checkpoint)"), printed());
    assertEquals(List.of(0, 1), steps(dir.resolve("metrics.jsonl")));
  }

  @Test
  void aRewardThatAlwaysFailsStopsWithOneLineNamingIt() throws Exception {
    Path src =
        Files.writeString(
            tmp.resolve("Failing.java"),
            """
            package com.example;
            public final class Failing implements dev.javelin.rewards.RewardFunction {
              @Override public String name() { return "failing"; }
              @Override public dev.javelin.rewards.RewardResult score(
                  dev.javelin.rewards.RewardInput in) {
                throw new IllegalStateException("no answer key loaded");
              }
            }
            """);
    int code =
        run(
            TinyRecipe.runArgs(
                tmp.resolve("failing"),
                20,
                "custom_reward_function.path=" + src,
                "custom_reward_function.name=com.example.Failing"));
    String e = err.toString(StandardCharsets.UTF_8).strip();
    assertEquals(2, code, printed());
    assertEquals(1, e.lines().count(), e);
    assertTrue(e.contains("reward function 'failing' failed on"), e);
    assertTrue(e.contains("IllegalStateException: no answer key loaded"), e);
    assertTrue(e.contains("reward.max_error_rate"), e);
    assertTrue(steps(tmp.resolve("failing/metrics.jsonl")).size() < 20, "it ran to the end");
  }
}
