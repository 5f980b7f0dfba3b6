package dev.javelin.datasets.order;

import java.util.SplittableRandom;

/** The visiting order of one epoch: a pure function of (size, seed, epoch). */
public final class EpochPermutation {
  /** Odd 64-bit constant (golden ratio) spreading epochs across seeds. */
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private EpochPermutation() {}

  /** A Fisher–Yates shuffle of {@code 0..n-1} driven by a generator seeded from (seed, epoch). */
  public static int[] of(int n, long seed, int epoch) {
    int[] order = identity(n); // (n)
    SplittableRandom rng = new SplittableRandom(seed + GOLDEN * (epoch + 1L));
    for (int i = n - 1; i > 0; i--) {
      int j = rng.nextInt(i + 1);
      int swap = order[i];
      order[i] = order[j];
      order[j] = swap;
    }
    return order;
  }

  /** {@code 0..n-1} in order. */
  public static int[] identity(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("permutation size must be >= 0, got " + n);
    }
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    return order;
  }
}
