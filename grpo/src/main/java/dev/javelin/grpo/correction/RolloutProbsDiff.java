package dev.javelin.grpo.correction;

import dev.javelin.grpo.Shapes;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How far the sampler's token probabilities are from the trainer's (VeRL's {@code
 * calculate_debug_metrics}): with p_rollout = exp(sampler log-prob) and p_actor = exp(trainer old
 * log-prob) over the response tokens, d = |p_rollout − p_actor|, reported as max, mean and std
 * (unbiased, as {@code torch.std}), and the Pearson correlation of p_actor with p_rollout. A
 * rollout decoded in another precision (bf16 sampling under an f32 trainer) or by a stale policy
 * shows here before it shows in the loss.
 */
public final class RolloutProbsDiff {
  public static final String VALID = "training/rollout_probs_diff_valid";
  public static final String MAX = "training/rollout_probs_diff_max";
  public static final String MEAN = "training/rollout_probs_diff_mean";
  public static final String STD = "training/rollout_probs_diff_std";
  public static final String PEARSON = "training/rollout_actor_probs_pearson_corr";

  private RolloutProbsDiff() {}

  /**
   * The metrics over the tokens of {@code mask}: {@link #VALID} is 1 with at least one token (else
   * 0 and nothing else); {@link #STD} is 0 for a single token; {@link #PEARSON} is left out when
   * either side is constant (torch gives NaN there).
   *
   * @param actorLogProb the trainer's log π_old, (B, T)
   * @param rolloutLogProb the sampler's log-probs, (B, T)
   */
  public static Map<String, Double> metrics(
      double[] actorLogProb, double[] rolloutLogProb, boolean[] mask, int rows, int cols) {
    Shapes.checkRequired("actorLogProb", actorLogProb, rows, cols);
    Shapes.checkRequired("rolloutLogProb", rolloutLogProb, rows, cols);
    Shapes.checkMask(mask, rows, cols);
    long n = 0;
    double sumD = 0;
    double sumA = 0;
    double sumR = 0;
    double max = 0;
    for (int i = 0; i < mask.length; i++) {
      if (mask[i]) {
        double a = Math.exp(actorLogProb[i]);
        double r = Math.exp(rolloutLogProb[i]);
        double d = Math.abs(r - a);
        n++;
        sumD += d;
        sumA += a;
        sumR += r;
        max = Math.max(max, d);
      }
    }
    Map<String, Double> out = new LinkedHashMap<>();
    out.put(VALID, n > 0 ? 1.0 : 0.0);
    if (n == 0) {
      return out;
    }
    double mean = sumD / n;
    double meanA = sumA / n;
    double meanR = sumR / n;
    double ssD = 0; // second pass: centred sums, no cancellation
    double ssA = 0;
    double ssR = 0;
    double sAR = 0;
    for (int i = 0; i < mask.length; i++) {
      if (mask[i]) {
        double a = Math.exp(actorLogProb[i]) - meanA;
        double r = Math.exp(rolloutLogProb[i]) - meanR;
        double d = Math.abs(r + meanR - a - meanA) - mean;
        ssD += d * d;
        ssA += a * a;
        ssR += r * r;
        sAR += a * r;
      }
    }
    out.put(MAX, max);
    out.put(MEAN, mean);
    out.put(STD, n > 1 ? Math.sqrt(ssD / (n - 1)) : 0.0);
    if (ssA > 0 && ssR > 0) {
      out.put(PEARSON, sAR / Math.sqrt(ssA * ssR));
    }
    return out;
  }
}
