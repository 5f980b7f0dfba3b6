package dev.javelin.grpo;

/** A policy-gradient loss: per-token terms from a batch and the policy-loss configuration. */
@FunctionalInterface
public interface PolicyLoss {

  /** Computes the per-token losses and their derivatives with respect to logπ_θ. */
  PolicyLossTerms compute(PolicyBatch batch, PolicyLossConfig config);
}
