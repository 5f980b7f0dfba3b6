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
  static final String P = "algorithm.";

  private KlInRewardKeys() {}

  /** Declares the keys. */
  static void declare(Schema.Builder b) {
    b.add(KeySpec.of(P + "use_kl_in_reward", KeyType.BOOL, false, "subtract β·KL from rewards"));
    b.add(
        KeySpec.of(
            P + "kl_penalty",
            KeyType.oneOf(RecipeKeyed.allKeys(KlEstimator.class).toArray(new String[0])),
            "kl",
            "estimator of the in-reward KL"));
    b.add(
        KeySpec.of(
            P + "kl_ctrl.type", KeyType.oneOf("fixed", "adaptive"), "fixed", "β controller"));
    b.add(KeySpec.of(P + "kl_ctrl.kl_coef", KeyType.DOUBLE, 0.001, "initial β"));
    b.add(KeySpec.of(P + "kl_ctrl.target_kl", KeyType.DOUBLE, 0.1, "adaptive: KL target"));
    b.add(KeySpec.of(P + "kl_ctrl.horizon", KeyType.INT, 10000, "adaptive: horizon H"));
  }

  /** {@code base} with the recipe's in-reward KL, when switched on. */
  static AlgorithmConfig apply(Settings s, AlgorithmConfig base) {
    if (!s.getBool(P + "use_kl_in_reward")) {
      return base;
    }
    KlControlConfig ctrl =
        new KlControlConfig(
            KlControlConfig.Type.parse(s.getString(P + "kl_ctrl.type")),
            s.getDouble(P + "kl_ctrl.kl_coef"),
            s.getInt(P + "kl_ctrl.horizon"),
            s.getDouble(P + "kl_ctrl.target_kl"));
    return base.withKlInReward(
        KlEstimator.parse(s.getString(P + "kl_penalty"), P + "kl_penalty"), ctrl);
  }
}
