package dev.javelin.recipes.metrics;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The headline held-out metric of a validation: the greedy accuracy {@code
 * val-core/<data_source>/acc/mean@1} (a percentage) when the reward reports an {@code acc} extra,
 * else the mean greedy score {@code val-core/<data_source>/reward/mean@1}, printed as a plain
 * number: a reward whose scores are not accuracies is never shown as one. With several data sources
 * the headline is the mean over sources, each source weighing the same.
 */
public final class HeldOut {
  /** The per-source greedy accuracy keys. */
  public static final Pattern ACC = Pattern.compile("val-core/.+/acc/mean@1");

  /** The per-source greedy score keys, present when the reward reports no {@code acc}. */
  public static final Pattern REWARD = Pattern.compile("val-core/.+/reward/mean@1");

  /** The keys charted as held-out accuracy: every {@code acc} statistic of {@code val-core}. */
  public static final String ACC_CHART = "val-core/.*/acc/(mean|maj|best)@.*";

  /** The keys charted as held-out reward. */
  public static final String REWARD_CHART = "val-core/.*/reward/(mean|maj|best)@.*";

  private HeldOut() {}

  /** Whether {@code key} is one of the headline's per-source values. */
  public static boolean isHeadline(String key) {
    return ACC.matcher(key).matches() || REWARD.matcher(key).matches();
  }

  /** The headline value in {@code m}, NaN when {@code m} holds no validation. */
  public static double value(Map<String, Double> m) {
    Pattern p = isAccuracy(m) ? ACC : REWARD;
    double sum = 0;
    int n = 0;
    for (var e : m.entrySet()) {
      if (p.matcher(e.getKey()).matches() && e.getValue() != null) {
        sum += e.getValue();
        n++;
      }
    }
    return n == 0 ? Double.NaN : sum / n;
  }

  /** The headline accuracy in {@code m}, NaN when it holds none (or only scores). */
  public static double accuracy(Map<String, Double> m) {
    return has(m, ACC) ? value(m) : Double.NaN;
  }

  /** Whether {@code m}'s validation measured an accuracy (true when it holds none). */
  public static boolean isAccuracy(Map<String, Double> m) {
    return !has(m, REWARD) || has(m, ACC);
  }

  private static boolean has(Map<String, Double> m, Pattern p) {
    return m.keySet().stream().anyMatch(k -> p.matcher(k).matches());
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
