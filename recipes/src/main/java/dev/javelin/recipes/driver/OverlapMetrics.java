package dev.javelin.recipes.driver;

import dev.javelin.sampler.Rollout;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How much generation and training overlapped in one step, and how off-policy the batch was.
 *
 * <ul>
 *   <li>{@code rollout/staleness/{mean,max}}: v_train − v_rollout, the version the trainer held
 *       when the batch arrived minus the version that generated each response (0 in sync mode, 1
 *       after the first step of one_step_off).
 *   <li>{@code trainer/idle_ratio}: the share of the step the trainer spent waiting for rollouts.
 *   <li>{@code rollout/idle_ratio}: the share of the step the samplers were not generating (1 −
 *       generation seconds / step seconds, floored at 0).
 *   <li>{@code rollout/sampler_restarts}, {@code rollout/sampler_rejected}: cumulative sampler
 *       restarts and malformed results rejected (and regenerated) by the pool (cluster mode).
 * </ul>
 */
final class OverlapMetrics {
  private OverlapMetrics() {}

  static Map<String, Double> of(
      List<Rollout> rollouts,
      long trainerVersion,
      double waitSeconds,
      double generationSeconds,
      double stepSeconds,
      int samplerRestarts,
      int samplerRejected) {
    Map<String, Double> m = new LinkedHashMap<>();
    double sum = 0;
    long max = 0;
    for (Rollout r : rollouts) {
      long lag = trainerVersion - r.policyVersion();
      sum += lag;
      max = Math.max(max, lag);
    }
    m.put("rollout/staleness/mean", rollouts.isEmpty() ? 0 : sum / rollouts.size());
    m.put("rollout/staleness/max", (double) max);
    m.put("trainer/idle_ratio", ratio(waitSeconds, stepSeconds));
    m.put("rollout/idle_ratio", Math.max(0, 1 - ratio(generationSeconds, stepSeconds)));
    m.put("rollout/sampler_restarts", (double) samplerRestarts);
    m.put("rollout/sampler_rejected", (double) samplerRejected);
    return m;
  }

  private static double ratio(double part, double whole) {
    return whole > 0 ? Math.min(1, part / whole) : 0;
  }
}
