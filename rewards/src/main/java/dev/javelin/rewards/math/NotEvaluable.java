package dev.javelin.rewards.math;

/**
 * Thrown when an answer cannot be brought to exact form (unsupported notation, a size limit, a
 * division by zero). Callers fall back to string comparison. Carries no stack trace: it is control
 * flow on the hot path, not a bug report.
 */
public class NotEvaluable extends RuntimeException {
  /** Creates the exception; {@code reason} is for debugging only. */
  public NotEvaluable(String reason) {
    super(reason, null, false, false);
  }
}
