package dev.javelin.sampler.sampling;

import java.util.Arrays;

/**
 * The truncation filters applied to a probability vector before a draw, as pure functions that zero
 * the dropped entries in place. Ties at a threshold are kept (as in Hugging Face's warpers), so at
 * least one token always survives. Applied in the order top-k, top-p, min-p.
 */
public final class LogitFilters {
  private LogitFilters() {}

  /** Keeps the {@code k} most likely tokens (and ties with the k-th); k &lt;= 0 keeps all. */
  public static void topK(double[] probs, int k) {
    if (k <= 0 || k >= probs.length) {
      return;
    }
    double[] sorted = probs.clone();
    Arrays.sort(sorted); // ascending
    double threshold = sorted[sorted.length - k];
    dropBelow(probs, threshold);
  }

  /**
   * Nucleus filter: keeps the most likely tokens until their share of the remaining mass reaches
   * {@code p}; p &gt;= 1 keeps all.
   */
  public static void topP(double[] probs, double p) {
    if (p >= 1) {
      return;
    }
    double[] sorted = probs.clone();
    Arrays.sort(sorted);
    double total = 0;
    for (double x : sorted) {
      total += x;
    }
    double target = p * total;
    double cumulative = 0;
    double threshold = sorted[sorted.length - 1];
    for (int i = sorted.length - 1; i >= 0; i--) {
      threshold = sorted[i];
      cumulative += sorted[i];
      if (cumulative >= target) {
        break;
      }
    }
    dropBelow(probs, threshold);
  }

  /** Drops tokens less likely than {@code minP} times the most likely one; 0 keeps all. */
  public static void minP(double[] probs, double minP) {
    if (minP <= 0) {
      return;
    }
    double max = 0;
    for (double x : probs) {
      max = Math.max(max, x);
    }
    dropBelow(probs, minP * max);
  }

  private static void dropBelow(double[] probs, double threshold) {
    for (int i = 0; i < probs.length; i++) {
      if (probs[i] < threshold) {
        probs[i] = 0;
      }
    }
  }
}
