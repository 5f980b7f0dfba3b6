package dev.javelin.recipes.config;

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
    DataConfig.declare(b);
    SyntheticConfig.declare(b);
    ModelSection.declare(b);
    ModelOverrideKeys.declare(b);
    LoraKeys.declare(b);
    MixedPrecisionKeys.declare(b);
    ActorConfig.declare(b);
    RolloutConfig.declare(b);
    AlgorithmKeys.declare(b);
    OverlongBufferKeys.declare(b);
    TrainerSection.declare(b);
    ChipKeys.declare(b);
    RecipeConfig.declare(b);
    RewardHealthKeys.declare(b);
    RewardWorkerKeys.declare(b);
    BestCheckpointKeys.declare(b);
    return b.build();
  }
}
