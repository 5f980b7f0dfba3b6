package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.javelin.recipes.cli.Commands;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
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
    assertEquals(
        java.nio.file.Files.exists(one.resolve("global_step_3/model.safetensors")),
        java.nio.file.Files.exists(two.resolve("global_step_3/model.safetensors")));
    assertEquals(true, java.nio.file.Files.exists(two.resolve("global_step_3/model.safetensors")));
    // The two-rank checkpoint is a single-process one: one rank resumes it for a fourth step,
    // as the one-rank run resumes its own.
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
