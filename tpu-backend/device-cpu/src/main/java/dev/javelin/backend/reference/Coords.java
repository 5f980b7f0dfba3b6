package dev.javelin.backend.reference;

import dev.javelin.backend.Shape;

/** Row-major index arithmetic: flat index to coordinates and back. */
final class Coords {
  private Coords() {}

  /** The coordinates of flat index {@code flat} in {@code shape}. */
  static int[] unravel(Shape shape, int flat) {
    int[] c = new int[shape.rank()];
    for (int i = shape.rank() - 1; i >= 0; i--) {
      int d = shape.dim(i);
      c[i] = flat % d;
      flat /= d;
    }
    return c;
  }

  /** The flat index of coordinates {@code c} in {@code shape}. */
  static int ravel(Shape shape, int[] c) {
    int flat = 0;
    for (int i = 0; i < c.length; i++) {
      flat = flat * shape.dim(i) + c[i];
    }
    return flat;
  }

  static int clamp(int v, int lo, int hi) {
    return Math.max(lo, Math.min(v, hi));
  }
}
