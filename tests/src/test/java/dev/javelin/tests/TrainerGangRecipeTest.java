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
  }

  private static java.util.List<String> overrides(Path dir, int ranks) {
    // 64 samples a step in micro-batches of 16: four micro-batches, two per rank
    return TinyRuns.tiny(
        dir,
        3,
        "trainer.ray=off",
        "trainer.nnodes=" + ranks,
        "trainer.save_freq=3",
        "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=16");
  }
}
