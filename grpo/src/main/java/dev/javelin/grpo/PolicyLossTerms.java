package dev.javelin.grpo;

import java.util.Map;

/**
 * What a policy loss produces before aggregation: per-token losses L_t and their derivatives
 * ∂L_t/∂logπ_θ(o_t). Every loss Javelin implements is elementwise in this sense (GSPO's sequence
 * ratio included, through its stop-gradient form), so aggregation is a weighted sum.
 *
 * @param loss L, (B, T); only entries under the mask are meaningful (implementations may leave
 *     padding at 0)
 * @param dLoss ∂L/∂logπ_θ, (B, T), likewise
 * @param mask the mask to aggregate with (rejection sampling may have cleared tokens)
 * @param aggMode the aggregation this loss insists on (GSPO), or null for the configured one
 * @param metrics VeRL-named metrics computed over this batch
 */
// Flat row-major buffers shared with the trainer and device; copying B*T doubles per access
// would defeat the point, so these records expose their arrays and document them as read-only.
@SuppressWarnings("ArrayRecordComponent")
public record PolicyLossTerms(
    double[] loss,
    double[] dLoss,
    boolean[] mask,
    LossAggMode aggMode,
    Map<String, Double> metrics) {

  /** Copies the metrics map. */
  public PolicyLossTerms {
    if (loss.length != dLoss.length || loss.length != mask.length) {
      throw new IllegalArgumentException(
          "loss, dLoss and mask must have equal length, got "
              + loss.length
              + ", "
              + dLoss.length
              + ", "
              + mask.length);
    }
    metrics = Map.copyOf(metrics);
  }

  /** These terms multiplied by constant per-token weights (rollout importance sampling). */
  public PolicyLossTerms scaledBy(double[] weights) {
    double[] l = loss.clone();
    double[] d = dLoss.clone();
    for (int i = 0; i < l.length; i++) {
      l[i] *= weights[i];
      d[i] *= weights[i];
    }
    return new PolicyLossTerms(l, d, mask, aggMode, metrics);
  }
}
