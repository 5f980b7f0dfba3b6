package dev.javelin.backend.testing;

import static org.junit.jupiter.api.Assertions.fail;

import dev.javelin.backend.Tensor;

/**
 * Relative error as the parity tests define it: {@code max|a - e| / max|e|} over the selected
 * elements, so that near-zero entries do not blow up the ratio.
 */
public final class RelError {
  private RelError() {}

  public static double of(Tensor expected, Tensor actual, boolean[] include) {
    if (!expected.shape().equals(actual.shape())) {
      fail("shape " + actual.shape() + " differs from expected " + expected.shape());
    }
    double maxDiff = 0;
    double maxRef = 0;
    int n = expected.shape().intSize();
    for (int i = 0; i < n; i++) {
      if (include != null && !include[i]) {
        continue;
      }
      double e = expected.getDouble(i);
      double a = actual.getDouble(i);
      if (!Double.isFinite(a)) {
        return Double.POSITIVE_INFINITY;
      }
      maxDiff = Math.max(maxDiff, Math.abs(a - e));
      maxRef = Math.max(maxRef, Math.abs(e));
    }
    return maxDiff / Math.max(maxRef, 1e-30);
  }

  /** Fails with the error when it exceeds {@code tol}. */
  public static void assertClose(
      String what, Tensor expected, Tensor actual, boolean[] include, double tol) {
    double err = of(expected, actual, include);
    if (!(err <= tol)) {
      fail(what + ": relative error " + err + " > " + tol);
    }
  }

  public static void assertClose(String what, Tensor expected, Tensor actual, double tol) {
    assertClose(what, expected, actual, null, tol);
  }
}
