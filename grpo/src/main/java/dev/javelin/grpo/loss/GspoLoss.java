package dev.javelin.grpo.loss;

import dev.javelin.grpo.LossAggMode;
import dev.javelin.grpo.Masked;
import dev.javelin.grpo.MetricNames;
import dev.javelin.grpo.PolicyBatch;
import dev.javelin.grpo.PolicyLoss;
import dev.javelin.grpo.PolicyLossConfig;
import dev.javelin.grpo.PolicyLossTerms;
import dev.javelin.grpo.Shapes;
import java.util.Map;

/**
 * GSPO (Zheng et al. 2025): a length-normalised sequence ratio s_i =
 * (π_θ(o_i)/π_old(o_i))^{1/|o_i|}, in VeRL's token form s_{i,t} =
 * sg(s_i)·π_θ(o_{i,t})/sg(π_θ(o_{i,t})), so that ∂s_{i,t}/∂logπ_θ(o_{i,t}) = s_i:
 *
 * <pre>
 *   log s_i = min(Σ_t m_t (logπ_θ − logπ_old) / max(|o_i|, 1), 10)
 *   L = max(−Â·s_i, −Â·clip(s_i, 1 − ε_low, 1 + ε_high))
 * </pre>
 *
 * Always aggregated with {@code seq-mean-token-mean}, whatever {@code loss_agg_mode} says (as in
 * VeRL). {@code actor/ppo_kl} uses the unclamped log ratio; {@code pg_clipfrac_lower} is 0.
 */
public final class GspoLoss implements PolicyLoss {
  private static final double MAX_LOG_RATIO = 10.0;

  @Override
  public PolicyLossTerms compute(PolicyBatch b, PolicyLossConfig c) {
    int rows = b.rows();
    int cols = b.cols();
    double[] loss = new double[b.size()]; // (B, T)
    double[] grad = new double[b.size()]; // (B, T)
    double[] negKl = new double[b.size()]; // (B, T)
    boolean[] clipped = new boolean[b.size()];
    double lo = 1.0 - c.clipRatioLow();
    double hi = 1.0 + c.clipRatioHigh();
    for (int i = 0; i < negKl.length; i++) {
      negKl[i] = -(b.logProb()[i] - b.oldLogProb()[i]);
    }
    for (int r = 0; r < rows; r++) {
      double len = Math.max(Shapes.rowLength(b.mask(), cols, r), 1);
      double seqLog = -Masked.rowSum(negKl, b.mask(), cols, r) / len;
      // clamp(max=10) passes gradient at and below the bound
      double s = Math.exp(Math.min(seqLog, MAX_LOG_RATIO));
      double ds = seqLog <= MAX_LOG_RATIO ? s : 0.0;
      for (int t = r * cols, end = t + cols; t < end; t++) {
        double a = b.advantages()[t];
        double l1 = -a * s;
        double d1 = -a * ds;
        double l2 = -a * Math.max(lo, Math.min(hi, s));
        double d2 = s >= lo && s <= hi ? d1 : 0.0;
        clipped[t] = l2 > l1;
        loss[t] = Math.max(l1, l2);
        grad[t] = l1 > l2 ? d1 : l2 > l1 ? d2 : 0.5 * (d1 + d2);
      }
    }
    Map<String, Double> metrics =
        Map.of(
            MetricNames.PG_CLIPFRAC, Masked.fraction(clipped, b.mask()),
            MetricNames.PG_CLIPFRAC_LOWER, 0.0,
            MetricNames.PPO_KL, Masked.mean(negKl, b.mask()));
    return new PolicyLossTerms(loss, grad, b.mask(), LossAggMode.SEQ_MEAN_TOKEN_MEAN, metrics);
  }
}
