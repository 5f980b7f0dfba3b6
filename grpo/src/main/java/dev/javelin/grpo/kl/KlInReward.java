package dev.javelin.grpo.kl;

import dev.javelin.grpo.KlEstimator;
import dev.javelin.grpo.Shapes;
import java.util.Map;

/**
 * KL in the reward ({@code algorithm.use_kl_in_reward}): r_t = score_t − β·KL_t·m_t with KL_t
 * estimated from the old and reference log-probs. The observed KL, mean over responses of the
 * per-response masked mean, updates the controller with n = B.
 */
public final class KlInReward {
  private KlInReward() {}

  /**
   * The penalised rewards, the next controller, and {@code actor/reward_kl_penalty} and {@code
   * actor/reward_kl_penalty_coeff}.
   *
   * @param rewards (B, T) token rewards
   * @param metrics the two metrics
   * @param next the controller after this step
   */
  @SuppressWarnings("ArrayRecordComponent") // (B, T) rewards handed straight to the estimator
  public record Result(double[] rewards, KlController next, Map<String, Double> metrics) {
    /** Copies the metrics. */
    public Result {
      metrics = Map.copyOf(metrics);
    }
  }

  /** Applies the penalty; arrays are (B, T). */
  public static Result apply(
      double[] tokenScores,
      double[] oldLogProb,
      double[] refLogProb,
      boolean[] mask,
      int rows,
      int cols,
      KlEstimator estimator,
      KlController controller) {
    Shapes.checkRequired("tokenScores", tokenScores, rows, cols);
    Shapes.checkRequired("oldLogProb", oldLogProb, rows, cols);
    Shapes.checkRequired("refLogProb", refLogProb, rows, cols);
    Shapes.checkMask(mask, rows, cols);
    double beta = controller.value();
    double[] rewards = new double[rows * cols]; // (B, T)
    double klSum = 0.0;
    for (int r = 0; r < rows; r++) {
      double rowKl = 0.0;
      for (int t = r * cols, end = t + cols; t < end; t++) {
        double kl = mask[t] ? estimator.value(oldLogProb[t], refLogProb[t]) : 0.0;
        rowKl += kl;
        rewards[t] = tokenScores[t] - beta * kl;
      }
      klSum += rowKl / (Shapes.rowLength(mask, cols, r) + 1e-8);
    }
    double currentKl = klSum / rows;
    return new Result(
        rewards,
        controller.update(currentKl, rows),
        Map.of("actor/reward_kl_penalty", currentKl, "actor/reward_kl_penalty_coeff", beta));
  }
}
