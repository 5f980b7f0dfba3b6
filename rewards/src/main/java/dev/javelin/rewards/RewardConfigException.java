package dev.javelin.rewards;

/**
 * A reward configuration problem found before training starts (unknown function, unknown data
 * source, bad keyword argument). The message names the offending key and what to do.
 */
public final class RewardConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception with a message naming the key and the fix. */
  public RewardConfigException(String message) {
    super(message);
  }

  /** Creates the exception with a cause (e.g. a failing constructor). */
  public RewardConfigException(String message, Throwable cause) {
    super(message, cause);
  }
}
