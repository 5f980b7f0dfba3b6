package dev.javelin.grpo;

import java.util.Map;

/**
 * A scalar loss with its exact gradient, ready to be fed back into the model as a cotangent.
 *
 * @param value the loss ℒ
 * @param dLogProb ∂ℒ/∂logπ_θ(o_t), (B, T) row-major; zero on padding
 * @param dEntropy ∂ℒ/∂H_t, (B, T); null when the loss has no entropy term
 * @param metrics VeRL-named metrics ({@code actor/pg_loss}, {@code actor/pg_clipfrac}, ...)
 */
// Flat row-major buffers shared with the trainer and device; copying B*T doubles per access
// would defeat the point, so these records expose their arrays and document them as read-only.
@SuppressWarnings("ArrayRecordComponent")
public record LossResult(
    double value, double[] dLogProb, double[] dEntropy, Map<String, Double> metrics) {

  /** Copies the metrics map so the record stays immutable. */
  public LossResult {
    if (dLogProb == null) {
      throw new IllegalArgumentException("dLogProb must not be null");
    }
    metrics = Map.copyOf(metrics);
  }
}
