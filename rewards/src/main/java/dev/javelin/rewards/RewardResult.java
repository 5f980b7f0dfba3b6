package dev.javelin.rewards;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The score of one rollout plus named extras (VeRL's {@code reward_extra_info}), e.g. {@code acc},
 * {@code pred}, {@code format_ok}. Numeric and boolean extras are averaged into metrics by {@link
 * RewardScorer}.
 *
 * @param score the scalar reward; must be finite
 * @param extras named side values (read-only copy, insertion-ordered)
 */
public record RewardResult(double score, Map<String, Object> extras) {

  private static final RewardResult ZERO = new RewardResult(0.0, Map.of());

  /** Validates the score and freezes the extras. */
  public RewardResult {
    if (!Double.isFinite(score)) {
      throw new IllegalArgumentException("score must be finite, got " + score);
    }
    extras =
        extras == null || extras.isEmpty()
            ? Map.of()
            : Collections.unmodifiableMap(new LinkedHashMap<>(extras));
  }

  /** A result with no extras. */
  public static RewardResult of(double score) {
    return score == 0.0 ? ZERO : new RewardResult(score, Map.of());
  }

  /** The score given to a failed or timed-out call. */
  public static RewardResult zero() {
    return ZERO;
  }

  /** A copy with one more extra (replacing a previous value under the same key). */
  public RewardResult with(String key, Object value) {
    Objects.requireNonNull(key, "key");
    Map<String, Object> copy = new LinkedHashMap<>(extras);
    copy.put(key, value);
    return new RewardResult(score, copy);
  }
}
