package dev.javelin.recipes.config;

import dev.javelin.grpo.AlgorithmConfig;
import dev.javelin.grpo.KlControlConfig;
import dev.javelin.grpo.KlEstimator;
import dev.javelin.grpo.RecipeKeyed;

/**
 * {@code algorithm.use_kl_in_reward}, {@code algorithm.kl_penalty} and {@code algorithm.kl_ctrl.*}
 * (VeRL's keys): r_t = score_t − β·KL(π_old ‖ π_ref)_t, with β fixed or adapted towards {@code
 * target_kl} over {@code horizon} samples.
 */
public final class KlInRewardKeys {
  static final KeySet KEYS = new KeySet("algorithm.");
  static final KeySpec USE_KL_IN_REWARD =
      KEYS.of("use_kl_in_reward", KeyType.BOOL, false, "subtract β·KL from rewards");
  static final KeySpec KL_PENALTY =
      KEYS.of(
          "kl_penalty",
          KeyType.oneOf(RecipeKeyed.allKeys(KlEstimator.class).toArray(new String[0])),
          "kl",
          "estimator of the in-reward KL");
  static final KeySpec KL_CTRL_TYPE =
      KEYS.of("kl_ctrl.type", KeyType.oneOf("fixed", "adaptive"), "fixed", "β controller");
  static final KeySpec KL_CTRL_KL_COEF =
      KEYS.of("kl_ctrl.kl_coef", KeyType.DOUBLE, 0.001, "initial β");
  static final KeySpec KL_CTRL_TARGET_KL =
      KEYS.of("kl_ctrl.target_kl", KeyType.DOUBLE, 0.1, "adaptive: KL target");
  static final KeySpec KL_CTRL_HORIZON =
      KEYS.of("kl_ctrl.horizon", KeyType.INT, 10000, "adaptive: horizon H");

  private KlInRewardKeys() {}

  /** {@code base} with the recipe's in-reward KL, when switched on. */
  static AlgorithmConfig apply(Settings s, AlgorithmConfig base) {
    if (!s.getBool(USE_KL_IN_REWARD)) {
      return base;
    }
    double targetKl = s.getDouble(KL_CTRL_TARGET_KL);
    Checks.require(targetKl > 0, KL_CTRL_TARGET_KL.name(), "must be > 0, got " + targetKl);
    KlControlConfig ctrl =
        new KlControlConfig(
            KlControlConfig.Type.parse(s.getString(KL_CTRL_TYPE)),
            s.nonNegativeDouble(KL_CTRL_KL_COEF),
            s.positiveInt(KL_CTRL_HORIZON),
            targetKl);
    return base.toBuilder()
        .klInReward(KlEstimator.parse(s.getString(KL_PENALTY), KL_PENALTY.name()), ctrl)
        .build();
  }
}
