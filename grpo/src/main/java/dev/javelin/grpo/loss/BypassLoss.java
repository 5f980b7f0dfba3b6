package dev.javelin.grpo.loss;

import dev.javelin.grpo.Masked;
import dev.javelin.grpo.MetricNames;
import dev.javelin.grpo.PolicyBatch;
import dev.javelin.grpo.PolicyLoss;
import dev.javelin.grpo.PolicyLossConfig;
import dev.javelin.grpo.PolicyLossTerms;
import dev.javelin.grpo.RolloutCorrectionConfig;
import dev.javelin.grpo.RolloutCorrectionConfig.BypassLossType;
import dev.javelin.grpo.correction.Correction;
import dev.javelin.grpo.correction.RolloutCorrection;
import java.util.HashMap;
import java.util.Map;

/**
 * VeRL's {@code bypass_mode}: the sampler's log-probs stand in for the old log-probs, so the
 * trainer skips its own old-log-prob pass. They are read from {@code rolloutLogProb}, or from
 * {@code oldLogProb} when that is null (VeRL's trainer copies them there). IS weights w = sg(π_θ /
 * π_rollout), truncated, and the rejection mask are computed here from the current log-probs; then
 * either
 *
 * <ul>
 *   <li>{@code reinforce}: L = −w·Â·logπ_θ, or
 *   <li>{@code ppo_clip}: {@link PpoClipLoss} with r = π_θ/π_rollout and no extra weights.
 * </ul>
 *
 * The rejection mask clears tokens from aggregation, but the global denominators the trainer passes
 * stay as counted before rejection (as in VeRL).
 */
public final class BypassLoss implements PolicyLoss {

  /** Bypass mode computes its own IS weights from the sampler's log-probs. */
  @Override
  public boolean appliesIsWeights() {
    return false;
  }

  @Override
  public PolicyLossTerms compute(PolicyBatch b, PolicyLossConfig c) {
    RolloutCorrectionConfig rc = c.rolloutCorrection();
    double[] rollout = b.rolloutLogProb() != null ? b.rolloutLogProb() : b.oldLogProb();
    Correction corr =
        RolloutCorrection.compute(b.logProb(), rollout, b.mask(), b.rows(), b.cols(), rc);
    boolean[] mask = corr.mask();
    Map<String, Double> metrics = new HashMap<>(corr.metrics());
    if (rc.lossType() == BypassLossType.PPO_CLIP) {
      PolicyLossTerms t = PpoClipLoss.compute(b.logProb(), rollout, b.advantages(), mask, c);
      metrics.putAll(t.metrics());
      return new PolicyLossTerms(t.loss(), t.dLoss(), mask, null, metrics);
    }
    double[] w = corr.weights();
    double[] negKl = new double[b.size()]; // (B, T)
    for (int i = 0; i < negKl.length; i++) {
      negKl[i] = -(b.logProb()[i] - rollout[i]);
    }
    metrics.put(MetricNames.PPO_KL, Masked.mean(negKl, mask));
    return GpgLoss.reinforce(b.logProb(), b.advantages(), w, mask, metrics);
  }
}
