package dev.javelin.grpo.loss;

import dev.javelin.grpo.Masked;
import dev.javelin.grpo.MetricNames;
import dev.javelin.grpo.PolicyBatch;
import dev.javelin.grpo.PolicyLoss;
import dev.javelin.grpo.PolicyLossConfig;
import dev.javelin.grpo.PolicyLossTerms;
import java.util.Map;

/**
 * CISPO (MiniMax-M1, 2025): clip the importance weight, not the update, and stop its gradient so
 * every token keeps a policy-gradient signal:
 *
 * <pre>
 *   r = exp(clamp(logπ_θ − logπ_old, −20, 20))
 *   L = −sg(clip(r, 1 − ε_low, 1 + ε_high))·Â·logπ_θ,     ∂L/∂logπ_θ = −clip(r)·Â
 * </pre>
 *
 * {@code actor/pg_clipfrac} = mean[r ≠ clip(r)]; {@code pg_clipfrac_lower} is 0.
 */
public final class CispoLoss implements PolicyLoss {

  @Override
  public PolicyLossTerms compute(PolicyBatch b, PolicyLossConfig c) {
    int n = b.size();
    double[] loss = new double[n]; // (B, T)
    double[] grad = new double[n]; // (B, T)
    double[] negKl = new double[n]; // (B, T)
    boolean[] clipped = new boolean[n];
    for (int i = 0; i < n; i++) {
      if (!b.mask()[i]) {
        continue; // padding
      }
      double logRatio =
          Math.max(
              -PpoClipLoss.LOG_RATIO_BOUND,
              Math.min(PpoClipLoss.LOG_RATIO_BOUND, b.logProb()[i] - b.oldLogProb()[i]));
      double r = Math.exp(logRatio);
      double w = Math.max(1.0 - c.clipRatioLow(), Math.min(1.0 + c.clipRatioHigh(), r));
      negKl[i] = -logRatio;
      clipped[i] = r != w;
      grad[i] = -w * b.advantages()[i];
      loss[i] = grad[i] * b.logProb()[i];
    }
    Map<String, Double> metrics =
        Map.of(
            MetricNames.PG_CLIPFRAC, Masked.fraction(clipped, b.mask()),
            MetricNames.PG_CLIPFRAC_LOWER, 0.0,
            MetricNames.PPO_KL, Masked.mean(negKl, b.mask()));
    return new PolicyLossTerms(loss, grad, b.mask(), null, metrics);
  }
}
