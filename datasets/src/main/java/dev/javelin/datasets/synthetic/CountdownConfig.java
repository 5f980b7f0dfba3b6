package dev.javelin.datasets.synthetic;

/**
 * Shape of the countdown task: {@code count} numbers uniform in {@code [minNumber, maxNumber]} and
 * a target uniform in {@code [minTarget, maxTarget]}; draws without a solution are rejected.
 *
 * @param count how many numbers, 2 to {@link CountdownSolver#MAX_NUMBERS}
 * @param minNumber smallest number, at least 1
 * @param maxNumber largest number, at most 10000
 * @param minTarget smallest target, at least 1
 * @param maxTarget largest target, at most 1000000
 * @param maxAttempts draws per instance before giving up on finding a solvable one
 */
public record CountdownConfig(
    int count, int minNumber, int maxNumber, int minTarget, int maxTarget, int maxAttempts) {

  public CountdownConfig {
    if (count < 2 || count > CountdownSolver.MAX_NUMBERS) {
      throw new IllegalArgumentException(
          "countdown: count must be in [2, " + CountdownSolver.MAX_NUMBERS + "], got " + count);
    }
    requireRange("number", minNumber, maxNumber, 10_000);
    requireRange("target", minTarget, maxTarget, 1_000_000);
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("countdown: maxAttempts must be >= 1, got " + maxAttempts);
    }
  }

  /** TinyZero-like: four numbers in [1, 99], target in [1, 100]. */
  public static CountdownConfig standard() {
    return new CountdownConfig(4, 1, 99, 1, 100, 10_000);
  }

  private static void requireRange(String what, int min, int max, int limit) {
    if (min < 1 || max < min || max > limit) {
      throw new IllegalArgumentException(
          "countdown: need 1 <= min"
              + what
              + " <= max"
              + what
              + " <= "
              + limit
              + ", got ["
              + min
              + ", "
              + max
              + "]");
    }
  }
}
