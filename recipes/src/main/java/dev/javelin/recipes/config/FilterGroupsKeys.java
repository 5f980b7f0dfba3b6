package dev.javelin.recipes.config;

import dev.javelin.grpo.FilterGroupsConfig;

/**
 * {@code algorithm.filter_groups.*} and {@code data.gen_batch_size} (DAPO's keys): each generation
 * round draws {@code gen_batch_size} prompts, groups whose metric is the same for every response
 * are dropped, and rounds continue until {@code train_batch_size} groups are kept. Past {@code
 * max_num_gen_batches} rounds (≤ 0: no cap) the run stops with an error, as VeRL's DAPO trainer
 * does.
 */
public final class FilterGroupsKeys {
  static final String P = "algorithm.filter_groups.";
  static final String GEN_BATCH = "data.gen_batch_size";

  private FilterGroupsKeys() {}

  /** Declares the keys. */
  static void declare(Schema.Builder b) {
    b.add(KeySpec.of(P + "enable", KeyType.BOOL, false, "DAPO dynamic sampling"));
    b.add(
        KeySpec.of(
            P + "metric",
            KeyType.oneOf("acc", "score", "seq_reward", "seq_final_reward"),
            "acc",
            "per-response value whose flat groups are dropped"));
    b.add(KeySpec.of(P + "max_num_gen_batches", KeyType.INT, 0, "rounds per step; <= 0 no cap"));
    b.add(KeySpec.optional(GEN_BATCH, KeyType.INT, "prompts per generation round"));
  }

  /** The recipe's dynamic sampling (disabled unless {@code enable=true}). */
  static FilterGroupsConfig from(Settings s) {
    if (!s.getBool(P + "enable")) {
      return FilterGroupsConfig.disabled();
    }
    Checks.require(
        !s.getString("trainer.rollout_mode").equals("one_step_off"),
        P + "enable",
        "dynamic sampling runs with trainer.rollout_mode=sync only");
    Checks.require(
        !(s.getBool("algorithm.use_kl_in_reward")
            && s.getString(P + "metric").equals("seq_final_reward")),
        P + "metric",
        "seq_final_reward with algorithm.use_kl_in_reward=true is not supported; use seq_reward");
    return new FilterGroupsConfig(
        true, s.getString(P + "metric"), s.getInt(P + "max_num_gen_batches"));
  }

  /** Prompts drawn per generation round: {@code data.gen_batch_size}, else the train batch. */
  public static int genBatchSize(Settings s) {
    int train = s.getInt("data.train_batch_size");
    if (!s.getBool(P + "enable") || !s.isSet(GEN_BATCH)) {
      return train;
    }
    return Checks.positive(GEN_BATCH, s.getInt(GEN_BATCH));
  }
}
