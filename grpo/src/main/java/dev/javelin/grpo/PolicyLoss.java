package dev.javelin.grpo;

/** A policy-gradient loss: per-token terms from a batch and the policy-loss configuration. */
@FunctionalInterface
public interface PolicyLoss {

  /** Computes the per-token losses and their derivatives with respect to logπ_θ. */
  PolicyLossTerms compute(PolicyBatch batch, PolicyLossConfig config);

  /**
   * Whether the batch's precomputed rollout IS weights multiply this loss's terms; a loss that
   * computes its own weights (bypass mode, as in VeRL) says no.
   */
  default boolean appliesIsWeights() {
    return true;
  }
}
