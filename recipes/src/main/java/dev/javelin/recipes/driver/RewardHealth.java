package dev.javelin.recipes.driver;

import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.RewardHealthKeys;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * Stops a run whose reward keeps failing: once more than {@code reward.max_error_rate} of the
 * reward calls of the last {@link RewardHealthKeys#WINDOW_STEPS} steps failed (an exception or the
 * time limit), the run ends with one line naming the function and its first error, instead of
 * training on zeros to the end and reporting "finished".
 */
final class RewardHealth {
  private final double maxRate;
  private final Scoring scoring;
  private final Deque<long[]> marks = new ArrayDeque<>(); // {calls, failed} before each step

  RewardHealth(double maxRate, Scoring scoring) {
    this.maxRate = maxRate;
    this.scoring = scoring;
    marks.add(new long[] {scoring.calls(), scoring.failures()});
  }

  /** Called after each step; throws when the window's failed share is over the limit. */
  void afterStep() {
    long calls = scoring.calls();
    long failed = scoring.failures();
    long[] from = marks.peekFirst();
    long windowCalls = calls - from[0];
    long windowFailed = failed - from[1];
    marks.addLast(new long[] {calls, failed});
    if (marks.size() > RewardHealthKeys.WINDOW_STEPS) {
      marks.removeFirst();
    }
    if (windowCalls > 0 && (double) windowFailed / windowCalls > maxRate) {
      throw new ConfigException(
          String.format(
              Locale.ROOT,
              "reward function '%s' failed on %d of %d calls over the last steps (first error: %s);"
                  + " fix the reward, or raise %s (now %s) to keep training",
              scoring.functionName(),
              windowFailed,
              windowCalls,
              scoring.firstError().orElse("none recorded"),
              RewardHealthKeys.name(),
              maxRate));
    }
  }
}
