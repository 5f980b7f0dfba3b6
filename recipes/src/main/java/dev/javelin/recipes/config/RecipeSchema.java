package dev.javelin.recipes.config;

import java.util.List;

/**
 * Every key a recipe may set, with VeRL's names where the concept is the same ({@code
 * data.train_batch_size}, {@code actor_rollout_ref.actor.optim.lr}, {@code trainer.save_freq},
 * ...). Javelin-only keys live under the same sections ({@code actor_rollout_ref.model.init.*} for
 * a random tiny model, {@code data.synthetic.*} for generated tasks, {@code sft.*}). Each section
 * declares its keys next to the record it configures ({@link ActorConfig}, {@link TrainerSection},
 * ...).
 */
public final class RecipeSchema {
  private static final Schema SCHEMA = build();

  private RecipeSchema() {}

  /** The schema. */
  public static Schema schema() {
    return SCHEMA;
  }

  private static Schema build() {
    Schema.Builder b = Schema.builder();
    List.of(
            DataConfig.KEYS,
            SyntheticConfig.KEYS,
            ModelSection.KEYS,
            ModelOverrideKeys.KEYS,
            LoraKeys.KEYS,
            MixedPrecisionKeys.KEYS,
            ActorConfig.KEYS,
            RolloutConfig.KEYS,
            AlgorithmKeys.KEYS,
            KlInRewardKeys.KEYS,
            RolloutCorrectionKeys.KEYS,
            FilterGroupsKeys.KEYS,
            OverlongBufferKeys.KEYS,
            TrainerSection.KEYS,
            ChipKeys.KEYS,
            RecipeConfig.KEYS,
            RewardHealthKeys.KEYS,
            RewardWorkerKeys.KEYS,
            BestCheckpointKeys.KEYS)
        .forEach(keys -> keys.declareIn(b));
    return b.build();
  }
}
