package dev.javelin.recipes.config;

import dev.javelin.grpo.FilterGroupsConfig;
import dev.javelin.recipes.config.TrainerSection.RolloutMode;

/**
 * {@code algorithm.filter_groups.*} and {@code data.gen_batch_size} (DAPO's keys): each generation
 * round draws {@code gen_batch_size} prompts, groups whose metric is the same for every response
 * are dropped, and rounds continue until {@code train_batch_size} groups are kept. Past {@code
 * max_num_gen_batches} rounds (≤ 0: no cap) the run stops with an error, as VeRL's DAPO trainer
 * does.
 */
public final class FilterGroupsKeys {
  static final String P = "algorithm.filter_groups.";
  static final KeySet KEYS = new KeySet();
  static final KeySpec ENABLE = KEYS.of(P + "enable", KeyType.BOOL, false, "DAPO dynamic sampling");
  public static final KeySpec METRIC =
      KEYS.of(
          P + "metric",
          KeyType.oneOf("acc", "score", "seq_reward", "seq_final_reward"),
          "acc",
          "per-response value whose flat groups are dropped");
  public static final KeySpec MAX_NUM_GEN_BATCHES =
      KEYS.of(P + "max_num_gen_batches", KeyType.INT, 0, "rounds per step; <= 0 no cap");
  static final KeySpec GEN_BATCH_SIZE =
      KEYS.optional("data.gen_batch_size", KeyType.INT, "prompts per generation round");

  private FilterGroupsKeys() {}

  /** The recipe's dynamic sampling (disabled unless {@code enable=true}). */
  static FilterGroupsConfig from(Settings s) {
    if (!s.getBool(ENABLE)) {
      return FilterGroupsConfig.disabled();
    }
    Checks.require(
        s.getChoice(TrainerSection.ROLLOUT_MODE, RolloutMode.class) != RolloutMode.ONE_STEP_OFF,
        ENABLE.name(),
        "dynamic sampling runs with trainer.rollout_mode=sync only");
    Checks.require(
        !(s.getBool(KlInRewardKeys.USE_KL_IN_REWARD)
            && s.getString(METRIC).equals("seq_final_reward")),
        METRIC.name(),
        "seq_final_reward with algorithm.use_kl_in_reward=true is not supported; use seq_reward");
    return new FilterGroupsConfig(true, s.getString(METRIC), s.getInt(MAX_NUM_GEN_BATCHES));
  }

  /** Prompts drawn per generation round: {@code data.gen_batch_size}, else the train batch. */
  public static int genBatchSize(Settings s) {
    int train = s.getInt(DataConfig.TRAIN_BATCH_SIZE);
    if (!s.getBool(ENABLE) || !s.isSet(GEN_BATCH_SIZE)) {
      return train;
    }
    return s.positiveInt(GEN_BATCH_SIZE);
  }
}
