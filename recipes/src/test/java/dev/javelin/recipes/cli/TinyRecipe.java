package dev.javelin.recipes.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Overrides that shrink the bundled arith-grpo recipe to a run of a few seconds in local mode. */
final class TinyRecipe {
  private TinyRecipe() {}

  static List<String> overrides(Path dir, int steps, String... extra) {
    List<String> o =
        new ArrayList<>(
            List.of(
                "actor_rollout_ref.model.path=",
                "actor_rollout_ref.model.warmup_recipe=",
                "actor_rollout_ref.model.init.hidden=16",
                "actor_rollout_ref.model.init.intermediate=32",
                "actor_rollout_ref.model.init.layers=1",
                "actor_rollout_ref.model.init.heads=2",
                "actor_rollout_ref.model.init.kv_heads=2",
                "actor_rollout_ref.model.init.max_positions=16",
                "data.synthetic.digits=1",
                "data.synthetic.train_size=16",
                "data.synthetic.val_size=4",
                "data.train_batch_size=4",
                "data.max_prompt_length=8",
                "data.max_response_length=3",
                "actor_rollout_ref.actor.ppo_mini_batch_size=4",
                "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=8",
                "actor_rollout_ref.rollout.n=2",
                "trainer.samplers=1",
                "trainer.total_training_steps=" + steps,
                "trainer.test_freq=-1",
                "trainer.save_freq=-1",
                "trainer.default_local_dir=" + dir));
    o.addAll(List.of(extra));
    return o;
  }

  /** {@code run recipes/arith-grpo.yaml <tiny overrides> <extra>} as arguments for Main. */
  static String[] runArgs(Path dir, int steps, String... extra) {
    List<String> args = new ArrayList<>(List.of("run", "recipes/arith-grpo.yaml"));
    args.addAll(overrides(dir, steps, extra));
    return args.toArray(String[]::new);
  }
}
