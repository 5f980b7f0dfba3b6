package dev.javelin.recipes.config;

import dev.javelin.grpo.AdvantageEstimator;
import dev.javelin.grpo.AlgorithmConfig;

/**
 * {@code algorithm.*} (VeRL's keys), read into the grpo library's {@link AlgorithmConfig}: the
 * advantage estimator and its switches here; KL in the reward, rollout correction and dynamic
 * sampling in {@link KlInRewardKeys}, {@link RolloutCorrectionKeys} and {@link FilterGroupsKeys}.
 */
public final class AlgorithmKeys {
  static final KeySet KEYS = new KeySet("algorithm.");
  public static final KeySpec ADV_ESTIMATOR =
      KEYS.of(
          "adv_estimator", KeyType.keysOf(AdvantageEstimator.class), "grpo", "advantage estimator");
  public static final KeySpec NORM_ADV_BY_STD_IN_GRPO =
      KEYS.of("norm_adv_by_std_in_grpo", KeyType.BOOL, true, "divide by the group std");
  public static final KeySpec GAMMA = KEYS.of("gamma", KeyType.DOUBLE, 1.0, "discount γ");
  public static final KeySpec LAM =
      KEYS.of("lam", KeyType.DOUBLE, 1.0, "GAE λ (kept for compatibility)");

  private AlgorithmKeys() {}

  /** The recipe's algorithm. */
  static AlgorithmConfig from(Settings s) {
    for (KeySpec k : new KeySpec[] {GAMMA, LAM}) {
      double v = s.getDouble(k);
      Checks.require(v >= 0 && v <= 1, k.name(), "must be in [0, 1], got " + v);
    }
    AlgorithmConfig base = AlgorithmConfig.of(AdvantageEstimator.parse(s.getString(ADV_ESTIMATOR)));
    AlgorithmConfig c =
        new AlgorithmConfig(
            base.advEstimator(),
            s.getBool(NORM_ADV_BY_STD_IN_GRPO),
            s.getDouble(GAMMA),
            s.getDouble(LAM),
            false,
            base.klPenalty(),
            base.klCtrl(),
            FilterGroupsKeys.from(s),
            RolloutCorrectionKeys.from(s));
    FilterGroupsKeys.genBatchSize(s);
    return KlInRewardKeys.apply(s, c);
  }
}
