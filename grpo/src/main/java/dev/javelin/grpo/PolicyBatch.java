package dev.javelin.grpo;

import java.util.Arrays;

/**
 * One (micro-)batch of B responses padded to T tokens, everything flattened row-major: entry {@code
 * r*cols + t} is token {@code t} of response {@code r}. Arrays are (B, T).
 *
 * @param rows B, the number of responses
 * @param cols T, the padded response length
 * @param logProb log π_θ(o_t) under the policy being trained (the variable we differentiate by)
 * @param oldLogProb log π_old(o_t), the policy that is held fixed for this PPO epoch
 * @param advantages Â_t, broadcast over each response by the advantage estimator
 * @param mask response mask: true for real response tokens, false for padding
 * @param refLogProb log π_ref(o_t) of the reference policy; null unless a KL loss is used
 * @param rolloutLogProb the sampler's log-probs; null unless rollout correction is used
 * @param entropy per-token entropy H_t of π_θ at the sampling temperature; null when unused
 * @param isWeights rollout importance weights (constants, from {@code RolloutCorrection}); null
 *     when off
 */
// Flat row-major buffers shared with the trainer and device; copying B*T doubles per access
// would defeat the point, so these records expose their arrays and document them as read-only.
@SuppressWarnings("ArrayRecordComponent")
public record PolicyBatch(
    int rows,
    int cols,
    double[] logProb,
    double[] oldLogProb,
    double[] advantages,
    boolean[] mask,
    double[] refLogProb,
    double[] rolloutLogProb,
    double[] entropy,
    double[] isWeights) {

  /** Validates every present array against (rows, cols). */
  public PolicyBatch {
    Shapes.checkDims(rows, cols);
    Shapes.checkRequired("logProb", logProb, rows, cols);
    Shapes.checkRequired("oldLogProb", oldLogProb, rows, cols);
    Shapes.checkRequired("advantages", advantages, rows, cols);
    Shapes.checkMask(mask, rows, cols);
    Shapes.checkOptional("refLogProb", refLogProb, rows, cols);
    Shapes.checkOptional("rolloutLogProb", rolloutLogProb, rows, cols);
    Shapes.checkOptional("entropy", entropy, rows, cols);
    Shapes.checkOptional("isWeights", isWeights, rows, cols);
  }

  /** A batch with only the fields every policy loss needs. */
  public static PolicyBatch of(
      int rows,
      int cols,
      double[] logProb,
      double[] oldLogProb,
      double[] advantages,
      boolean[] mask) {
    return new PolicyBatch(
        rows, cols, logProb, oldLogProb, advantages, mask, null, null, null, null);
  }

  /** Total tokens B*T. */
  public int size() {
    return rows * cols;
  }

  /** This batch with the reference policy's log-probs (for the KL loss). */
  public PolicyBatch withRefLogProb(double[] ref) {
    return with(logProb, mask, ref, entropy, isWeights);
  }

  /** This batch with per-token entropy (for the entropy bonus). */
  public PolicyBatch withEntropy(double[] h) {
    return with(logProb, mask, refLogProb, h, isWeights);
  }

  /** This batch with new current log-probs (what a finite-difference check perturbs). */
  public PolicyBatch withLogProb(double[] lp) {
    return with(lp, mask, refLogProb, entropy, isWeights);
  }

  /** This batch with rollout-correction weights and the rejection-sampled mask applied. */
  public PolicyBatch withCorrection(double[] weights, boolean[] correctedMask) {
    return with(logProb, correctedMask, refLogProb, entropy, weights);
  }

  /** A copy with the fields the withers replace; the rollout's own arrays stay. */
  private PolicyBatch with(double[] lp, boolean[] m, double[] ref, double[] h, double[] weights) {
    return new PolicyBatch(
        rows, cols, lp, oldLogProb, advantages, m, ref, rolloutLogProb, h, weights);
  }

  /** Rows {@code [from, to)} as a new batch: how a trainer cuts a mini-batch into micro-batches. */
  public PolicyBatch slice(int from, int to) {
    if (from < 0 || to > rows || from >= to) {
      throw new IllegalArgumentException(
          "slice [" + from + ", " + to + ") is not inside [0, " + rows + ")");
    }
    int a = from * cols;
    int b = to * cols;
    return new PolicyBatch(
        to - from,
        cols,
        copy(logProb, a, b),
        copy(oldLogProb, a, b),
        copy(advantages, a, b),
        Arrays.copyOfRange(mask, a, b),
        copy(refLogProb, a, b),
        copy(rolloutLogProb, a, b),
        copy(entropy, a, b),
        copy(isWeights, a, b));
  }

  private static double[] copy(double[] v, int a, int b) {
    return v == null ? null : Arrays.copyOfRange(v, a, b);
  }
}
