package dev.javelin.grpo;

import java.util.SplittableRandom;

/** Seeded random (B, T) batches with ragged masks, for property and gradient tests. */
final class RandomBatches {
  private RandomBatches() {}

  /** Ragged mask: row r has a random length in [1, T], except row 0 which is empty. */
  static boolean[] raggedMask(SplittableRandom rng, int rows, int cols) {
    boolean[] m = new boolean[rows * cols];
    for (int r = 1; r < rows; r++) {
      int len = 1 + rng.nextInt(cols);
      for (int t = 0; t < len; t++) {
        m[r * cols + t] = true;
      }
    }
    return m;
  }

  static double[] gaussian(SplittableRandom rng, int n, double mean, double sd) {
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      out[i] = mean + sd * normal(rng);
    }
    return out;
  }

  static double normal(SplittableRandom rng) {
    double u = 1.0 - rng.nextDouble();
    double v = rng.nextDouble();
    return Math.sqrt(-2.0 * Math.log(u)) * Math.cos(2.0 * Math.PI * v);
  }

  /** A full batch: old ≈ −|N|, current = old + N(0, 0.3), ref/rollout near old, entropy > 0. */
  static PolicyBatch batch(SplittableRandom rng, int rows, int cols) {
    int n = rows * cols;
    double[] old = new double[n];
    for (int i = 0; i < n; i++) {
      old[i] = -Math.abs(normal(rng)) * 1.5;
    }
    double[] lp = new double[n];
    double[] ref = new double[n];
    double[] rollout = new double[n];
    double[] entropy = new double[n];
    for (int i = 0; i < n; i++) {
      lp[i] = old[i] + 0.3 * normal(rng);
      ref[i] = old[i] + 0.2 * normal(rng);
      rollout[i] = old[i] + 0.15 * normal(rng);
      entropy[i] = Math.abs(normal(rng));
    }
    boolean[] mask = raggedMask(rng, rows, cols);
    double[] rowAdv = gaussian(rng, rows, 0, 1);
    double[] adv = new double[n];
    for (int i = 0; i < n; i++) {
      adv[i] = mask[i] ? rowAdv[i / cols] : 0.0;
    }
    return new PolicyBatch(rows, cols, lp, old, adv, mask, ref, rollout, entropy, null);
  }
}
