package dev.javelin.grpo.correction;

import java.util.Map;

/**
 * The outcome of rollout correction on one batch.
 *
 * @param weights truncated IS weights, (B, T), zero on padding; null when IS is off
 * @param mask the response mask after rejection sampling, (B, T)
 * @param metrics {@code rollout_corr/*} metrics
 */
// Flat row-major buffers shared with the trainer and device; copying B*T doubles per access
// would defeat the point, so these records expose their arrays and document them as read-only.
@SuppressWarnings("ArrayRecordComponent")
public record Correction(double[] weights, boolean[] mask, Map<String, Double> metrics) {

  /** Copies the metrics. */
  public Correction {
    metrics = Map.copyOf(metrics);
  }
}
