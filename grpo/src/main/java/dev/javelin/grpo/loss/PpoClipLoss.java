package dev.javelin.grpo.loss;

import dev.javelin.grpo.Masked;
import dev.javelin.grpo.MetricNames;
import dev.javelin.grpo.PolicyBatch;
import dev.javelin.grpo.PolicyLoss;
import dev.javelin.grpo.PolicyLossConfig;
import dev.javelin.grpo.PolicyLossTerms;
import java.util.Map;

/**
 * PPO clip ({@code vanilla}) with DAPO's decoupled clip range and dual-clip. Per token, with Â the
 * advantage:
 *
 * <pre>
 *   r   = exp(clamp(logπ_θ − logπ_old, −20, 20))
 *   L¹  = −Â·r,   L² = −Â·clip(r, 1 − ε_low, 1 + ε_high),   L^clip = max(L¹, L²)
 *   L   = Â &lt; 0 ? min(L^clip, −Â·c) : L^clip                      (dual-clip, c > 1)
 * </pre>
 *
 * Metrics: {@code actor/pg_clipfrac} = mean[L² > L¹], {@code actor/pg_clipfrac_lower} = mean[Â &lt;
 * 0 ∧ L^clip > −Â·c], {@code actor/ppo_kl} = mean[−clamp(logπ_θ − logπ_old)].
 */
public final class PpoClipLoss implements PolicyLoss {
  static final double LOG_RATIO_BOUND = 20.0;

  @Override
  public PolicyLossTerms compute(PolicyBatch b, PolicyLossConfig c) {
    return compute(b.logProb(), b.oldLogProb(), b.advantages(), b.mask(), c);
  }

  /** The clipped loss of {@code logProb} against {@code oldLogProb} under {@code mask}. */
  public static PolicyLossTerms compute(
      double[] logProb,
      double[] oldLogProb,
      double[] advantages,
      boolean[] mask,
      PolicyLossConfig c) {
    int n = logProb.length;
    double[] loss = new double[n]; // (B, T)
    double[] grad = new double[n]; // (B, T)
    double[] negKl = new double[n]; // (B, T) −(clamped log ratio)
    boolean[] clipped = new boolean[n];
    boolean[] clippedLower = new boolean[n];
    double lo = 1.0 - c.clipRatioLow();
    double hi = 1.0 + c.clipRatioHigh();
    for (int i = 0; i < n; i++) {
      if (!mask[i]) {
        continue; // padding: zero loss and gradient, and aggregation ignores it anyway
      }
      double a = advantages[i];
      double x = logProb[i] - oldLogProb[i];
      boolean inBound = x >= -LOG_RATIO_BOUND && x <= LOG_RATIO_BOUND;
      double logRatio = Math.max(-LOG_RATIO_BOUND, Math.min(LOG_RATIO_BOUND, x));
      double r = Math.exp(logRatio);
      double dr = inBound ? r : 0.0;
      negKl[i] = -logRatio;
      double l1 = -a * r;
      double d1 = -a * dr;
      double l2 = -a * Math.max(lo, Math.min(hi, r));
      double d2 = r >= lo && r <= hi ? d1 : 0.0;
      clipped[i] = l2 > l1;
      // torch.maximum splits the gradient evenly on ties.
      double lc = Math.max(l1, l2);
      double dc = l1 > l2 ? d1 : l2 > l1 ? d2 : 0.5 * (d1 + d2);
      if (a < 0) {
        double l3 = -a * c.clipRatioC();
        clippedLower[i] = lc > l3;
        // torch.min with a constant: an exact tie halves the gradient, as in torch.
        loss[i] = Math.min(l3, lc);
        grad[i] = lc < l3 ? dc : lc > l3 ? 0.0 : 0.5 * dc;
      } else {
        loss[i] = lc;
        grad[i] = dc;
      }
    }
    Map<String, Double> metrics =
        Map.of(
            MetricNames.PG_CLIPFRAC, Masked.fraction(clipped, mask),
            MetricNames.PG_CLIPFRAC_LOWER, Masked.fraction(clippedLower, mask),
            MetricNames.PPO_KL, Masked.mean(negKl, mask));
    return new PolicyLossTerms(loss, grad, mask, null, metrics);
  }
}
