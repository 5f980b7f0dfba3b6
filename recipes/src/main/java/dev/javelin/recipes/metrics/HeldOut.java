package dev.javelin.recipes.metrics;

import java.util.Locale;
import java.util.Map;

/**
 * The headline held-out metric of a validation pass: {@code val/acc/mean@1} (a percentage) when the
 * reward reports an {@code acc} extra, else {@code val/reward/mean@1}, the mean score, printed as a
 * plain number: a reward whose scores are not accuracies is never shown as one.
 */
public final class HeldOut {
  /** The key of the mean greedy accuracy, present when the reward reports {@code acc}. */
  public static final String ACC = "val/acc/mean@1";

  /** The key of the mean greedy score, present when the reward reports no {@code acc}. */
  public static final String REWARD = "val/reward/mean@1";

  private HeldOut() {}

  /** The headline value in {@code m}, NaN when {@code m} holds no validation. */
  public static double value(Map<String, Double> m) {
    Double v = m.containsKey(ACC) ? m.get(ACC) : m.get(REWARD);
    return v == null ? Double.NaN : v;
  }

  /** Whether {@code m}'s validation measured an accuracy (true when it holds none). */
  public static boolean isAccuracy(Map<String, Double> m) {
    return !m.containsKey(REWARD) || m.containsKey(ACC);
  }

  /** {@code held-out greedy accuracy} or {@code held-out greedy reward}. */
  public static String label(boolean accuracy) {
    return accuracy ? "held-out greedy accuracy" : "held-out greedy reward";
  }

  /** {@code 42.4%} for an accuracy, {@code -0.700} for a score, {@code n/a} for NaN. */
  public static String format(double v, boolean accuracy) {
    if (Double.isNaN(v)) {
      return "n/a";
    }
    return accuracy
        ? String.format(Locale.ROOT, "%.1f%%", 100 * v)
        : String.format(Locale.ROOT, "%.3f", v);
  }

  /** The change between two values: {@code +26.8 points} or {@code +0.120}. */
  public static String delta(double from, double to, boolean accuracy) {
    if (Double.isNaN(from) || Double.isNaN(to)) {
      return "?";
    }
    return accuracy
        ? String.format(Locale.ROOT, "%+.1f points", 100 * (to - from))
        : String.format(Locale.ROOT, "%+.3f", to - from);
  }
}
