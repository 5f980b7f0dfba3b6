package dev.javelin.recipes.config;

/**
 * {@code reward.max_error_rate}: the share of reward calls that may fail (an exception or the time
 * limit) over the last {@link #WINDOW_STEPS} steps before the run stops, naming the function and
 * its first error. A reward that fails on every call would otherwise train on zeros to the end.
 */
public final class RewardHealthKeys {
  /** Steps the error rate is measured over. */
  public static final int WINDOW_STEPS = 3;

  static final KeySet KEYS = new KeySet();
  static final KeySpec MAX_ERROR_RATE =
      KEYS.of(
          "reward.max_error_rate",
          KeyType.DOUBLE,
          0.5,
          "failed share of reward calls over 3 steps that stops the run; 1 never stops");

  private RewardHealthKeys() {}

  /** The recipe's limit, in [0, 1]. */
  public static double maxErrorRate(Settings s) {
    double rate = s.getDouble(MAX_ERROR_RATE);
    Checks.require(rate >= 0 && rate <= 1, MAX_ERROR_RATE.name(), "must be in [0, 1]");
    return rate;
  }

  /** The key's name, for messages. */
  public static String name() {
    return MAX_ERROR_RATE.name();
  }
}
