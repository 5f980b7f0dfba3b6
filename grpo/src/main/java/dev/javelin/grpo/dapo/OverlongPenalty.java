package dev.javelin.grpo.dapo;

import dev.javelin.grpo.OverlongBufferConfig;

/**
 * DAPO's soft overlong punishment: with L_max the hard limit and L_buffer the buffer,
 *
 * <pre>
 *   penalty(|o|) = min(−(|o| − (L_max − L_buffer)) / L_buffer · factor, 0)
 * </pre>
 *
 * 0 up to L_max − L_buffer tokens, falling linearly to −factor at L_max. Added to the score.
 *
 * @param config the buffer
 * @param maxResponseLength L_max, {@code data.max_response_length}
 */
public record OverlongPenalty(OverlongBufferConfig config, int maxResponseLength) {

  /** Validates that the buffer fits inside the limit. */
  public OverlongPenalty {
    if (config == null) {
      throw new IllegalArgumentException("config must not be null");
    }
    if (maxResponseLength < config.len()) {
      throw new IllegalArgumentException(
          "maxResponseLength ("
              + maxResponseLength
              + ") must be >= the buffer's len ("
              + config.len()
              + ")");
    }
  }

  /** The (non-positive) reward to add for a response of {@code length} valid tokens. */
  public double penalty(int length) {
    if (!config.enable()) {
      return 0.0;
    }
    double expected = maxResponseLength - config.len();
    double exceed = length - expected;
    return Math.min(-exceed / config.len() * config.penaltyFactor(), 0.0);
  }
}
