package dev.javelin.grpo;

/** An advantage estimator as a pure function. */
@FunctionalInterface
public interface AdvantageFunction {

  /** Computes advantages and returns for the batch. */
  AdvantageResult compute(AdvantageInput input, AlgorithmConfig config);
}
