package dev.javelin.backend.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.javelin.backend.Bf16;
import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import java.util.Random;

/** Test helpers: random tensors, conversions, and closeness assertions with readable failures. */
public final class Tensors {
  private Tensors() {}

  /** Uniform random values in [-1, 1) of the given floating type. */
  public static Tensor random(Random rng, DType dtype, int... dims) {
    return uniform(rng, dtype, Shape.of(dims), -1, 1);
  }

  /** Uniform random values in [lo, hi) of the given floating type. */
  public static Tensor uniform(Random rng, DType dtype, Shape shape, double lo, double hi) {
    int n = shape.intSize();
    return switch (dtype) {
      case F32, BF16 -> {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
          a[i] = (float) (lo + (hi - lo) * rng.nextDouble());
        }
        yield dtype == DType.F32 ? new Tensor.F32(shape, a) : new Tensor.BF16(shape, a);
      }
      case F64 -> {
        double[] a = new double[n];
        for (int i = 0; i < n; i++) {
          a[i] = lo + (hi - lo) * rng.nextDouble();
        }
        yield new Tensor.F64(shape, a);
      }
      default -> throw new IllegalArgumentException("uniform needs a floating type, got " + dtype);
    };
  }

  /** Random ints in [0, bound). */
  public static Tensor.I32 randomInts(Random rng, int bound, int... dims) {
    Shape shape = Shape.of(dims);
    int[] a = new int[shape.intSize()];
    for (int i = 0; i < a.length; i++) {
      a[i] = rng.nextInt(bound);
    }
    return new Tensor.I32(shape, a);
  }

  public static Tensor.F64 f64(double[] data, int... dims) {
    return new Tensor.F64(Shape.of(dims), data);
  }

  public static Tensor.I32 i32Scalar(int v) {
    return new Tensor.I32(Shape.scalar(), new int[] {v});
  }

  /** All elements as doubles. */
  public static double[] toDoubles(Tensor t) {
    double[] d = new double[t.shape().intSize()];
    for (int i = 0; i < d.length; i++) {
      d[i] = t.getDouble(i);
    }
    return d;
  }

  /** A copy of {@code t} with every element converted to {@code dtype}. */
  public static Tensor convert(Tensor t, DType dtype) {
    double[] d = toDoubles(t);
    return switch (dtype) {
      case F64 -> new Tensor.F64(t.shape(), d);
      case F32, BF16 -> {
        float[] f = new float[d.length];
        for (int i = 0; i < d.length; i++) {
          f[i] = dtype == DType.F32 ? (float) d[i] : Bf16.round(d[i]);
        }
        yield dtype == DType.F32 ? new Tensor.F32(t.shape(), f) : new Tensor.BF16(t.shape(), f);
      }
      case I32 -> {
        int[] a = new int[d.length];
        for (int i = 0; i < d.length; i++) {
          a[i] = (int) d[i];
        }
        yield new Tensor.I32(t.shape(), a);
      }
      case PRED -> {
        boolean[] b = new boolean[d.length];
        for (int i = 0; i < d.length; i++) {
          b[i] = d[i] != 0;
        }
        yield new Tensor.Pred(t.shape(), b);
      }
    };
  }

  /**
   * Asserts same shape and, elementwise, {@code |a - e| <= tol * max(1, |e|)}: relative for large
   * values, absolute near zero. NaN must match NaN and infinities must match exactly.
   */
  public static void assertClose(Tensor expected, Tensor actual, double tol, String what) {
    assertEquals(expected.shape(), actual.shape(), what + ": shape");
    double worst = 0;
    int worstAt = -1;
    for (int i = 0; i < expected.shape().intSize(); i++) {
      double e = expected.getDouble(i);
      double a = actual.getDouble(i);
      if (Double.isNaN(e) || Double.isNaN(a) || Double.isInfinite(e) || Double.isInfinite(a)) {
        if (Double.compare(e, a) != 0) {
          fail(what + ": element " + i + " expected " + e + " but was " + a);
        }
        continue;
      }
      double err = Math.abs(a - e) / Math.max(1, Math.abs(e));
      if (err > worst) {
        worst = err;
        worstAt = i;
      }
    }
    if (worst > tol) {
      fail(
          String.format(
              "%s: element %d of %s expected %.9g but was %.9g (scaled error %.3g > %.3g)",
              what,
              worstAt,
              expected.shape(),
              expected.getDouble(worstAt),
              actual.getDouble(worstAt),
              worst,
              tol));
    }
  }

  /** Scaled error allowed for a bf16 value: four bf16 ulps of a value in [1, 2). */
  public static final double BF16_TOL = 0x1p-5;

  /**
   * bf16 agreement of two devices that both round each op to bf16 but compute it in different
   * precisions (double vs f32): nearly every element is bit-identical, and the few that differ (an
   * f32 result on the other side of a bf16 rounding boundary, and what that feeds) are within
   * {@link #BF16_TOL} scaled. Rounding that truncates, or an op left unrounded inside a chain,
   * changes far more than {@code maxDiffering} of the elements and fails.
   */
  public static void assertBf16Agree(
      Tensor expected, Tensor actual, double maxDiffering, String what) {
    assertClose(expected, actual, BF16_TOL, what);
    int n = expected.shape().intSize();
    int differing = 0;
    for (int i = 0; i < n; i++) {
      differing += Double.compare(expected.getDouble(i), actual.getDouble(i)) == 0 ? 0 : 1;
    }
    if (differing > maxDiffering * n) {
      fail(
          String.format(
              "%s: %d of %d bf16 elements differ from the reference (more than %.1f%%)",
              what, differing, n, 100 * maxDiffering));
    }
  }

  /** The largest {@code |a - e| / max(1, |e|)} over all elements. */
  public static double maxScaledError(Tensor expected, Tensor actual) {
    double worst = 0;
    for (int i = 0; i < expected.shape().intSize(); i++) {
      double e = expected.getDouble(i);
      worst = Math.max(worst, Math.abs(actual.getDouble(i) - e) / Math.max(1, Math.abs(e)));
    }
    return worst;
  }
}
