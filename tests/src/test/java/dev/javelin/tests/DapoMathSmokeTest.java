package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.cli.Commands;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled dapo-math recipe for one CPU step on a tiny random model over the shared GSM8K files.
 * A random model never solves a problem, so every math_dapo group would be flat and dynamic
 * sampling could never fill a batch: the smoke run swaps in the dense leading-digit reward (and
 * filters on its score) so clip-higher, dynamic sampling and the overlong buffer all run.
 */
class DapoMathSmokeTest {
  @Test
  void dapoMathRunsOneStep(@TempDir Path tmp) throws Exception {
    Path gsm8k = Path.of("../../shared/datasets/gsm8k/train.jsonl");
    assertTrue(Files.isRegularFile(gsm8k), "shared dataset missing: " + gsm8k.toAbsolutePath());
    new Commands(new PrintStream(OutputStream.nullOutputStream()))
        .run(
            "recipes/dapo-math.yaml",
            List.of(
                "data.train_files=[" + gsm8k.toAbsolutePath() + "]",
                "data.val_files=[]",
                "actor_rollout_ref.model.path=",
                "actor_rollout_ref.model.tokenizer_path=char",
                "actor_rollout_ref.model.init.max_positions=160",
                "data.prompt_template=raw",
                "data.max_prompt_length=128",
                "data.max_response_length=8",
                "reward_model.overlong_buffer.len=4",
                "data.train_batch_size=4",
                "data.gen_batch_size=4",
                "actor_rollout_ref.actor.ppo_mini_batch_size=4",
                "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=32",
                "custom_reward_function.name=",
                "custom_reward_function.class=" + LeadingDigitReward.class.getName(),
                "algorithm.filter_groups.metric=score",
                "trainer.ray=off",
                "trainer.total_training_steps=1",
                "trainer.default_local_dir=" + tmp));
    assertEquals(1, TinyRuns.series(tmp, "train/num_gen_batches").size());
    assertTrue(TinyRuns.series(tmp, "reward/overlong_reward/mean").get(1) <= 0);
    assertTrue(Double.isFinite(TinyRuns.series(tmp, "actor/pg_loss").get(1)));
  }
}
