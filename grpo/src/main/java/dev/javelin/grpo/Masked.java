package dev.javelin.grpo;

/**
 * VeRL's masked reductions over (B, T) arrays. {@code masked_mean} divides by (count + 1e-8), which
 * is kept so metrics match VeRL's numbers.
 */
public final class Masked {
  private Masked() {}

  /** Σ_{m} v / (Σ m + 1e-8). */
  public static double mean(double[] values, boolean[] mask) {
    double s = 0.0;
    long n = 0;
    for (int i = 0; i < values.length; i++) {
      if (mask[i]) {
        s += values[i];
        n++;
      }
    }
    return s / (n + 1e-8);
  }

  /** Fraction of masked tokens whose flag is set, with VeRL's 1e-8 in the denominator. */
  public static double fraction(boolean[] flags, boolean[] mask) {
    long hits = 0;
    long n = 0;
    for (int i = 0; i < flags.length; i++) {
      if (mask[i]) {
        n++;
        hits += flags[i] ? 1 : 0;
      }
    }
    return hits / (n + 1e-8);
  }

  /** Σ over row {@code r} of the masked values. */
  public static double rowSum(double[] values, boolean[] mask, int cols, int r) {
    double s = 0.0;
    for (int t = r * cols, end = t + cols; t < end; t++) {
      if (mask[t]) {
        s += values[t];
      }
    }
    return s;
  }
}
