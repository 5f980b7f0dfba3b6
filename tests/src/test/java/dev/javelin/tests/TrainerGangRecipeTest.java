package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.cli.Commands;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiny arith-grpo run with two trainer ranks ({@code trainer.nnodes=2}, threads of one JVM, each
 * computing half of every optimizer step's micro-batches) reports the metrics of the same run with
 * one rank, and writes the checkpoint from rank 0.
 */
class TrainerGangRecipeTest {
  private static final Commands QUIET =
      new Commands(new PrintStream(OutputStream.nullOutputStream()));

  @Test
  void twoRanksReportTheMetricsOfOne(@TempDir Path tmp) throws Exception {
    Path one = tmp.resolve("one");
    Path two = tmp.resolve("two");
    QUIET.run("recipes/arith-grpo.yaml", overrides(one, 1));
    QUIET.run("recipes/arith-grpo.yaml", overrides(two, 2));
    for (String key :
        new String[] {
          "actor/pg_loss", "actor/grad_norm", "actor/entropy", "critic/score/mean", "actor/lr"
        }) {
      Map<Integer, Double> a = TinyRuns.series(one, key);
      assertEquals(3, a.size(), key + " once per step");
      Map<Integer, Double> b = TinyRuns.series(two, key);
      assertEquals(a.keySet(), b.keySet(), key);
      TinyRuns.assertSeriesClose(a, b, key);
    }
    assertTrue(Files.isRegularFile(one.resolve("global_step_3/model.safetensors")));
    // Each of the two ranks wrote its part, as an HF sharded checkpoint.
    for (String part :
        List.of(
            "model.safetensors.index.json",
            "model-00001-of-00002.safetensors",
            "model-00002-of-00002.safetensors",
            "optimizer-00001-of-00002.safetensors",
            "optimizer-00002-of-00002.safetensors")) {
      assertTrue(Files.isRegularFile(two.resolve("global_step_3").resolve(part)), part);
    }
    assertFalse(Files.exists(two.resolve("global_step_3/model.safetensors")));
    // One rank resumes the two ranks' parts for a fourth step, as the one-rank run resumes its own.
    QUIET.run("recipes/arith-grpo.yaml", overrides(one, 1, 4));
    QUIET.run("recipes/arith-grpo.yaml", overrides(two, 1, 4));
    Map<Integer, Double> a = TinyRuns.series(one, "actor/pg_loss");
    Map<Integer, Double> b = TinyRuns.series(two, "actor/pg_loss");
    assertEquals(java.util.Set.of(1, 2, 3, 4), b.keySet(), "the resumed run's steps");
    TinyRuns.assertSeriesClose(a, b, "actor/pg_loss after resuming with one rank");
  }

  private static java.util.List<String> overrides(Path dir, int ranks) {
    return overrides(dir, ranks, 3);
  }

  private static java.util.List<String> overrides(Path dir, int ranks, int steps) {
    // 64 samples a step in micro-batches of 16: four micro-batches, two per rank
    return TinyRuns.tiny(
        dir,
        steps,
        "trainer.ray=off",
        "trainer.nnodes=" + ranks,
        "trainer.save_freq=3",
        "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=16");
  }
}
