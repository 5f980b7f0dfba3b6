package dev.javelin.recipes.driver;

import java.util.Map;

/** Adds {@code <name>/mean}, {@code /max}, {@code /min} of a sample to a metrics map. */
final class Stats {
  private Stats() {}

  static void put(Map<String, Double> m, String name, double[] values) {
    double sum = 0;
    double max = Double.NEGATIVE_INFINITY;
    double min = Double.POSITIVE_INFINITY;
    for (double v : values) {
      sum += v;
      max = Math.max(max, v);
      min = Math.min(min, v);
    }
    int n = values.length;
    m.put(name + "/mean", n == 0 ? Double.NaN : sum / n);
    m.put(name + "/max", n == 0 ? Double.NaN : max);
    m.put(name + "/min", n == 0 ? Double.NaN : min);
  }
}
