package dev.javelin.rewards.math;

/**
 * Thrown when a value exists but has no exact form in {@link Scalar} (a cube root of 4, {@code \ln
 * 2}, {@code 10^{1/100}}): {@link MathEquivalence} then compares the two sides numerically with
 * {@link Approx} instead of giving up.
 */
public final class NotExact extends NotEvaluable {
  /** Creates the exception; {@code reason} is for debugging only. */
  public NotExact(String reason) {
    super(reason);
  }
}
