package dev.javelin.grpo;

/**
 * DAPO overlong reward shaping, {@code reward_model.overlong_buffer}.
 *
 * @param enable apply the penalty
 * @param len L_buffer, the soft zone before the hard limit, > 0
 * @param penaltyFactor the penalty at the hard limit, >= 0
 */
public record OverlongBufferConfig(boolean enable, int len, double penaltyFactor) {

  /** Validates the buffer length and factor. */
  public OverlongBufferConfig {
    if (len <= 0) {
      throw new IllegalArgumentException("len must be > 0, got " + len);
    }
    if (!(penaltyFactor >= 0) || !Double.isFinite(penaltyFactor)) {
      throw new IllegalArgumentException(
          "penaltyFactor must be a finite number >= 0, got " + penaltyFactor);
    }
  }
}
