package dev.javelin.grpo.advantage;

import dev.javelin.grpo.Masked;

/** VeRL's {@code masked_whiten}: (x − mean)/sqrt(var + 1e-8) over masked entries, then × mask. */
final class Whitening {
  private Whitening() {}

  /**
   * Whitens {@code values} over the valid entries with the unbiased (Bessel-corrected) variance;
   * padding becomes 0.
   *
   * @throws IllegalArgumentException when fewer than two entries are valid (VeRL raises too)
   */
  static double[] whiten(double[] values, boolean[] mask) {
    long n = 0;
    for (boolean b : mask) {
      n += b ? 1 : 0;
    }
    if (n < 2) {
      throw new IllegalArgumentException(
          "whitening needs at least 2 valid tokens in the batch, got " + n);
    }
    double mean = Masked.mean(values, mask);
    double[] sq = new double[values.length]; // (B, T)
    for (int i = 0; i < values.length; i++) {
      sq[i] = (values[i] - mean) * (values[i] - mean);
    }
    double var = Masked.mean(sq, mask) * n / (n - 1);
    double scale = 1.0 / Math.sqrt(var + 1e-8);
    double[] out = new double[values.length]; // (B, T)
    for (int i = 0; i < values.length; i++) {
      out[i] = mask[i] ? (values[i] - mean) * scale : 0.0;
    }
    return out;
  }
}
