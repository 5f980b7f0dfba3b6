package dev.javelin.grpo.loss;

import dev.javelin.grpo.PolicyBatch;
import dev.javelin.grpo.PolicyLoss;
import dev.javelin.grpo.PolicyLossConfig;
import dev.javelin.grpo.PolicyLossTerms;
import java.util.Map;

/**
 * GPG (Chu et al. 2025), the plain policy gradient: L = −Â·logπ_θ, ∂L/∂logπ_θ = −Â. Also the
 * REINFORCE form of bypass mode when it is given IS weights w: L = −w·Â·logπ_θ.
 */
public final class GpgLoss implements PolicyLoss {

  @Override
  public PolicyLossTerms compute(PolicyBatch b, PolicyLossConfig c) {
    return reinforce(b.logProb(), b.advantages(), null, b.mask(), Map.of());
  }

  /** L = −w·Â·logπ and ∂L/∂logπ = −w·Â per token; {@code weights} may be null (w = 1). */
  static PolicyLossTerms reinforce(
      double[] logProb,
      double[] advantages,
      double[] weights,
      boolean[] mask,
      Map<String, Double> metrics) {
    double[] loss = new double[logProb.length]; // (B, T)
    double[] grad = new double[logProb.length]; // (B, T)
    for (int i = 0; i < loss.length; i++) {
      grad[i] = -(weights == null ? 1.0 : weights[i]) * advantages[i];
      loss[i] = grad[i] * logProb[i];
    }
    return new PolicyLossTerms(loss, grad, mask, null, metrics);
  }
}
