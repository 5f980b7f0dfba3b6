package dev.javelin.recipes.api;

import dev.javelin.recipes.config.ActorConfig;
import dev.javelin.recipes.config.AlgorithmKeys;

/**
 * The algorithm section of a {@link RunSpec}: the advantage estimator ({@code algorithm.*}) and the
 * policy update ({@code actor_rollout_ref.actor.*}: learning rate, mini-batches, KL loss).
 */
public final class AlgorithmSpec {
  private final SpecValues values;

  AlgorithmSpec(SpecValues values) {
    this.values = values;
  }

  /** {@code grpo}, {@code rloo}, {@code reinforce_plus_plus}, ... (VeRL's names). */
  public AlgorithmSpec advEstimator(String estimator) {
    values.put(AlgorithmKeys.ADV_ESTIMATOR, estimator);
    return this;
  }

  /** The optimizer's learning rate. */
  public AlgorithmSpec learningRate(double lr) {
    values.put(ActorConfig.OPTIM_LR, lr);
    return this;
  }

  /** Prompts per optimizer step; must divide {@link DataSpec#trainBatchSize}. */
  public AlgorithmSpec ppoMiniBatchSize(int prompts) {
    values.put(ActorConfig.PPO_MINI_BATCH_SIZE, prompts);
    return this;
  }

  /** Samples per forward/backward pass; must divide the mini-batch's samples. */
  public AlgorithmSpec ppoMicroBatchSize(int samples) {
    values.put(ActorConfig.PPO_MICRO_BATCH_SIZE_PER_GPU, samples);
    return this;
  }

  /** A KL loss against the reference model with this coefficient (0 turns it off). */
  public AlgorithmSpec klLoss(double coef) {
    values.put(ActorConfig.USE_KL_LOSS, coef > 0);
    values.put(ActorConfig.KL_LOSS_COEF, coef);
    return this;
  }

  /** The entropy bonus's coefficient. */
  public AlgorithmSpec entropyCoeff(double coeff) {
    values.put(ActorConfig.ENTROPY_COEFF, coeff);
    return this;
  }
}
