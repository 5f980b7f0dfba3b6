package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.cli.Commands;
import dev.javelin.recipes.config.ConfigException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DAPO dynamic sampling from a recipe. The leading-digit reward leaves about 40 % of the groups of
 * 8 flat (all 0), so rounds drop groups and keep generating until 8 informative groups are kept.
 */
class DynamicSamplingTest {
  private static final Commands QUIET =
      new Commands(new PrintStream(OutputStream.nullOutputStream()));

  private static List<String> dapo(Path dir, int steps, String... extra) {
    List<String> o =
        new ArrayList<>(
            List.of(
                "trainer.ray=off",
                "algorithm.filter_groups.enable=true",
                "algorithm.filter_groups.metric=score",
                "data.gen_batch_size=4"));
    o.addAll(List.of(extra));
    return TinyRuns.tiny(dir, steps, o.toArray(new String[0]));
  }

  @Test
  void flatGroupsAreDroppedCountedAndTheOrderResumesExactly(@TempDir Path tmp) throws Exception {
    Path straight = tmp.resolve("straight");
    Path resumed = tmp.resolve("resumed");
    QUIET.run("recipes/arith-grpo.yaml", dapo(straight, 3, "trainer.save_freq=1"));
    Map<Integer, Double> rounds = TinyRuns.series(straight, "train/num_gen_batches");
    Map<Integer, Double> dropped = TinyRuns.series(straight, "train/num_dropped_groups");
    assertEquals(3, rounds.size(), "num_gen_batches every step");
    double totalDropped = 0;
    for (int step = 1; step <= 3; step++) {
      double r = rounds.get(step);
      double d = dropped.get(step);
      // Rounds of 4 prompts until 8 groups are kept: at least 2 rounds, and what was drawn
      // covers the kept 8 plus the dropped ones (a surplus of kept groups is discarded).
      assertTrue(r >= 2, "rounds at step " + step + ": " + r);
      assertTrue(4 * r >= 8 + d && 4 * (r - 1) < 8 + d, "rounds " + r + ", dropped " + d);
      totalDropped += d;
    }
    assertTrue(totalDropped > 0, "the leading-digit reward leaves flat groups");
    for (String line : Files.readAllLines(straight.resolve("batches.jsonl"))) {
      assertEquals(8, idCount(line), "8 groups trained: " + line);
    }

    QUIET.run("recipes/arith-grpo.yaml", dapo(resumed, 1));
    QUIET.run("recipes/arith-grpo.yaml", dapo(resumed, 3, "trainer.resume_mode=auto"));
    assertEquals(
        Files.readAllLines(straight.resolve("batches.jsonl")),
        Files.readAllLines(resumed.resolve("batches.jsonl")),
        "same batches after a resume at step 1");
    assertEquals(
        TinyRuns.series(straight, "critic/score/mean"),
        TinyRuns.series(resumed, "critic/score/mean"));
    assertArrayEquals(
        Files.readAllBytes(straight.resolve("global_step_3/model.safetensors")),
        Files.readAllBytes(resumed.resolve("global_step_3/model.safetensors")));
  }

  @Test
  void theRoundCapStopsWithTheKeyNamed(@TempDir Path tmp) {
    ConfigException e =
        assertThrows(
            ConfigException.class,
            () ->
                QUIET.run(
                    "recipes/arith-grpo.yaml",
                    dapo(
                        tmp.resolve("capped"),
                        1,
                        "algorithm.filter_groups.max_num_gen_batches=1")));
    assertTrue(
        e.getMessage().contains("algorithm.filter_groups.max_num_gen_batches"), e.getMessage());
  }

  private static int idCount(String line) {
    String ids = line.substring(line.indexOf("\"ids\":[") + 7, line.indexOf(']'));
    return ids.isBlank() ? 0 : ids.split(",").length;
  }
}
