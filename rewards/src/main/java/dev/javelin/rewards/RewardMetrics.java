package dev.javelin.rewards;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Batch metrics under VeRL-style names. */
final class RewardMetrics {

  private RewardMetrics() {}

  /**
   * {@code reward/mean|max|min|count|errors|timeouts|seconds}, plus {@code reward/extra/<k>/mean}
   * for every numeric or boolean extra.
   */
  static Map<String, Double> summarize(
      List<RewardResult> results, int errors, int timeouts, double seconds) {
    Map<String, Double> m = new TreeMap<>();
    double sum = 0;
    double max = Double.NEGATIVE_INFINITY;
    double min = Double.POSITIVE_INFINITY;
    Map<String, double[]> extras = new TreeMap<>(); // key -> [sum, count]
    for (RewardResult r : results) {
      sum += r.score();
      max = Math.max(max, r.score());
      min = Math.min(min, r.score());
      r.extras().forEach((k, v) -> addExtra(extras, k, v));
    }
    int n = results.size();
    m.put("reward/count", (double) n);
    m.put("reward/mean", n == 0 ? 0.0 : sum / n);
    m.put("reward/max", n == 0 ? 0.0 : max);
    m.put("reward/min", n == 0 ? 0.0 : min);
    m.put("reward/errors", (double) errors);
    m.put("reward/timeouts", (double) timeouts);
    m.put("reward/seconds", seconds);
    extras.forEach((k, sc) -> m.put("reward/extra/" + k + "/mean", sc[0] / sc[1]));
    return m;
  }

  private static void addExtra(Map<String, double[]> extras, String key, Object v) {
    double x;
    if (v instanceof Boolean b) {
      x = b ? 1.0 : 0.0;
    } else if (v instanceof Number num && Double.isFinite(num.doubleValue())) {
      x = num.doubleValue();
    } else {
      return;
    }
    double[] acc = extras.computeIfAbsent(key, k -> new double[2]);
    acc[0] += x;
    acc[1] += 1;
  }
}
