package dev.javelin.rewards;

import java.time.Duration;

/**
 * Settings of a {@link RewardScorer}.
 *
 * @param parallelism worker threads (bounded pool), at least 1
 * @param timeout time limit of one {@link RewardFunction#score} call; a batch call gets this times
 *     its size
 * @param maxLoggedTraces how many stack traces of failing calls are logged (the rest are counted)
 */
public record RewardScorerConfig(int parallelism, Duration timeout, int maxLoggedTraces) {

  /** Validates every field. */
  public RewardScorerConfig {
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be >= 1, got " + parallelism);
    }
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
    if (maxLoggedTraces < 0) {
      throw new IllegalArgumentException("maxLoggedTraces must be >= 0, got " + maxLoggedTraces);
    }
  }

  /** All available cores, a 10 s limit, 5 logged traces. */
  public static RewardScorerConfig defaults() {
    return new RewardScorerConfig(
        Runtime.getRuntime().availableProcessors(), Duration.ofSeconds(10), 5);
  }

  /** A copy with another parallelism. */
  public RewardScorerConfig withParallelism(int p) {
    return new RewardScorerConfig(p, timeout, maxLoggedTraces);
  }

  /** A copy with another per-call time limit. */
  public RewardScorerConfig withTimeout(Duration t) {
    return new RewardScorerConfig(parallelism, t, maxLoggedTraces);
  }
}
