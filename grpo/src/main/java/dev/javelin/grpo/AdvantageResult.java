package dev.javelin.grpo;

/**
 * Advantages and returns, both (B, T) and zero on padding.
 *
 * @param advantages Â_t, what the policy loss reads
 * @param returns the returns (equal to the advantages for outcome-only group estimators)
 */
// Flat row-major buffers shared with the trainer and device; copying B*T doubles per access
// would defeat the point, so these records expose their arrays and document them as read-only.
@SuppressWarnings("ArrayRecordComponent")
public record AdvantageResult(double[] advantages, double[] returns) {

  /** Checks that both arrays are present and equally long. */
  public AdvantageResult {
    if (advantages == null || returns == null || advantages.length != returns.length) {
      throw new IllegalArgumentException("advantages and returns must be equally long arrays");
    }
  }
}
