package dev.javelin.grpo.correction;

import dev.javelin.grpo.RolloutCorrectionConfig;
import dev.javelin.grpo.RolloutCorrectionConfig.IsLevel;
import dev.javelin.grpo.Shapes;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Truncated importance sampling and rejection sampling between the training policy and the sampler
 * (VeRL's {@code rollout_corr_helper}). With ℓ_t = logπ_train(o_t) − logπ_rollout(o_t):
 *
 * <ul>
 *   <li>token IS: w_t = min(exp(clamp(ℓ_t, ±20)), C)
 *   <li>sequence IS: w_i = min(exp(clamp(Σ_t ℓ_t, ±20)), C) on every token of response i
 *   <li>rejection: tokens (or whole responses) failing a {@link RejectionRule} leave the mask.
 * </ul>
 *
 * The weights are constants (stop-gradient): they change the measure, not the objective.
 */
public final class RolloutCorrection {
  private static final double SAFETY_BOUND = 20.0;
  private static final String PREFIX = "rollout_corr/";

  private RolloutCorrection() {}

  /**
   * Computes weights, the rejection mask and metrics.
   *
   * @param trainLogProb logπ_train, (B, T): old log-probs (decoupled) or current ones (bypass)
   * @param rolloutLogProb the sampler's log-probs, (B, T)
   */
  public static Correction compute(
      double[] trainLogProb,
      double[] rolloutLogProb,
      boolean[] mask,
      int rows,
      int cols,
      RolloutCorrectionConfig config) {
    Shapes.checkRequired("trainLogProb", trainLogProb, rows, cols);
    Shapes.checkRequired("rolloutLogProb", rolloutLogProb, rows, cols);
    Shapes.checkMask(mask, rows, cols);
    if (!anyValid(mask)) {
      throw new IllegalArgumentException("rollout correction needs at least one valid token");
    }
    double[] logRatio = new double[rows * cols]; // (B, T)
    for (int i = 0; i < logRatio.length; i++) {
      logRatio[i] = trainLogProb[i] - rolloutLogProb[i];
    }
    Map<String, Double> metrics = new LinkedHashMap<>();
    double[] weights =
        config.rolloutIs() == IsLevel.OFF
            ? null
            : ImportanceWeights.compute(logRatio, mask, rows, cols, config, metrics);
    boolean[] kept =
        config.rolloutRs().isEmpty()
            ? mask.clone()
            : Rejection.apply(logRatio, mask, rows, cols, config.rolloutRs(), metrics);
    Map<String, Double> prefixed = new LinkedHashMap<>();
    metrics.forEach((k, v) -> prefixed.put(PREFIX + k, v));
    return new Correction(weights, kept, prefixed);
  }

  static double safeExp(double logValue) {
    return Math.exp(Math.max(-SAFETY_BOUND, Math.min(SAFETY_BOUND, logValue)));
  }

  static double clampLog(double logValue) {
    return Math.max(-SAFETY_BOUND, Math.min(SAFETY_BOUND, logValue));
  }

  private static boolean anyValid(boolean[] mask) {
    for (boolean m : mask) {
      if (m) {
        return true;
      }
    }
    return false;
  }
}
