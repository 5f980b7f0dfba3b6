package dev.javelin.rewards;

import java.util.ArrayList;
import java.util.List;

/**
 * Scores rollouts. Implementations should be thread-safe (the {@link RewardScorer} calls them from
 * a pool) and may throw: the scorer turns any exception or timeout into a score of 0 and counts it.
 *
 * <p>Register one by name with a {@link RewardFunctionProvider} in {@code
 * META-INF/services/dev.javelin.rewards.RewardFunctionProvider}, or name the class directly in a
 * recipe ({@code custom_reward_function.class}); see docs/REWARDS.md.
 */
public interface RewardFunction {

  /** A short name used in logs and metrics. */
  String name();

  /** Scores one rollout. */
  RewardResult score(RewardInput input);

  /**
   * Scores a batch, one result per input in order. The default calls {@link #score} per input;
   * override it (and {@link #prefersBatch}) when batching is cheaper, e.g. for a remote judge.
   */
  default List<RewardResult> scoreBatch(List<RewardInput> inputs) {
    List<RewardResult> out = new ArrayList<>(inputs.size());
    for (RewardInput in : inputs) {
      out.add(score(in));
    }
    return out;
  }

  /** Whether the scorer should hand this function whole chunks through {@link #scoreBatch}. */
  default boolean prefersBatch() {
    return false;
  }
}
