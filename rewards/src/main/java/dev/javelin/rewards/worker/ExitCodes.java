package dev.javelin.rewards.worker;

/** What a worker's exit code says, for the error its in-flight row is counted under. */
final class ExitCodes {
  /** The code the JVM exits with under {@code -XX:+ExitOnOutOfMemoryError}. */
  static final int OUT_OF_MEMORY = 3;

  private ExitCodes() {}

  static String describe(int code, String heap) {
    if (code == OUT_OF_MEMORY) {
      return "reward worker ran out of memory (its heap limit is " + heap + ")";
    }
    if (code > 128 && code < 160) {
      return "reward worker was killed by signal " + (code - 128);
    }
    if (code < 0) {
      return "reward worker stopped answering";
    }
    return "reward worker exited with code " + code + " (does the reward call System.exit?)";
  }
}
