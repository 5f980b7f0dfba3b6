package dev.javelin.backend.cpu;

import dev.javelin.backend.DType;
import dev.javelin.backend.graph.Op.BinaryKind;
import dev.javelin.backend.graph.Op.Direction;
import dev.javelin.backend.graph.Op.UnaryKind;

/**
 * Typed elementwise loops over one block: {@code out[oo + i] = f(a[ao + i], ...)} for {@code i <
 * n}. The switch on the op kind sits outside each loop so that every loop body is monomorphic and
 * the JIT can vectorise the simple ones (f32 calls at offset 0 go to {@link F32Blocks}, the form C2
 * vectorises). Float math that Java only offers in double ({@code tanh}, {@code log}, ...) is
 * computed in double and rounded, as the reference device does, except f32 {@code exp} and {@code
 * logistic}, which use {@link ExpLoops} (a few ulp, vectorised: they dominate softmax, log-softmax
 * and SiLU).
 */
final class ElementLoops {
  private ElementLoops() {}

  static void unary(UnaryKind kind, DType dtype, Object a, int ao, Object out, int oo, int n) {
    switch (dtype) {
      case F32, BF16 -> {
        if ((ao | oo) == 0) {
          F32Blocks.unary(kind, (float[]) a, (float[]) out, n);
        } else {
          unaryF32(kind, (float[]) a, ao, (float[]) out, oo, n);
        }
      }
      case F64 -> unaryF64(kind, (double[]) a, ao, (double[]) out, oo, n);
      case I32 -> unaryI32(kind, (int[]) a, ao, (int[]) out, oo, n);
      case PRED -> throw new IllegalArgumentException("unary " + kind + " on PRED");
    }
  }

  private static void unaryF32(UnaryKind kind, float[] a, int ao, float[] o, int oo, int n) {
    switch (kind) {
      case NEG -> {
        for (int i = 0; i < n; i++) {
          o[oo + i] = -a[ao + i];
        }
      }
      case ABS -> {
        for (int i = 0; i < n; i++) {
          o[oo + i] = Math.abs(a[ao + i]);
        }
      }
      case SQRT -> {
        for (int i = 0; i < n; i++) {
          o[oo + i] = (float) Math.sqrt(a[ao + i]);
        }
      }
      case RSQRT -> {
        for (int i = 0; i < n; i++) {
          o[oo + i] = (float) (1.0 / Math.sqrt(a[ao + i]));
        }
      }
      case EXP -> ExpLoops.exp(a, ao, o, oo, n);
      case LOG -> {
        for (int i = 0; i < n; i++) {
          o[oo + i] = (float) Math.log(a[ao + i]);
        }
      }
      case TANH -> {
        for (int i = 0; i < n; i++) {
          o[oo + i] = (float) Math.tanh(a[ao + i]);
        }
      }
      case LOGISTIC -> ExpLoops.logistic(a, ao, o, oo, n);
    }
  }

  private static void unaryF64(UnaryKind kind, double[] a, int ao, double[] o, int oo, int n) {
    for (int i = 0; i < n; i++) {
      double v = a[ao + i];
      o[oo + i] =
          switch (kind) {
            case NEG -> -v;
            case ABS -> Math.abs(v);
            case SQRT -> Math.sqrt(v);
            case RSQRT -> 1.0 / Math.sqrt(v);
            case EXP -> Math.exp(v);
            case LOG -> Math.log(v);
            case TANH -> Math.tanh(v);
            case LOGISTIC -> 1.0 / (1.0 + Math.exp(-v));
          };
    }
  }

  private static void unaryI32(UnaryKind kind, int[] a, int ao, int[] o, int oo, int n) {
    for (int i = 0; i < n; i++) {
      int v = a[ao + i];
      o[oo + i] =
          switch (kind) {
            case NEG -> -v;
            case ABS -> Math.abs(v);
            default -> throw new IllegalArgumentException("unary " + kind + " on i32");
          };
    }
  }

  static void binary(
      BinaryKind kind, DType dtype, Object a, int ao, Object b, int bo, Object out, int oo, int n) {
    switch (dtype) {
      case F32, BF16 -> {
        if ((ao | bo | oo) == 0) {
          F32Blocks.binary(kind, (float[]) a, (float[]) b, (float[]) out, n);
        } else {
          binaryF32(kind, (float[]) a, ao, (float[]) b, bo, (float[]) out, oo, n);
        }
      }
      case F64 -> binaryF64(kind, (double[]) a, ao, (double[]) b, bo, (double[]) out, oo, n);
      case I32 -> binaryI32(kind, (int[]) a, ao, (int[]) b, bo, (int[]) out, oo, n);
      case PRED -> throw new IllegalArgumentException("binary " + kind + " on PRED");
    }
  }

  private static void binaryF32(
      BinaryKind kind, float[] a, int ao, float[] b, int bo, float[] o, int oo, int n) {
    switch (kind) {
      case ADD -> {
        for (int i = 0; i < n; i++) {
          o[oo + i] = a[ao + i] + b[bo + i];
        }
      }
      case SUB -> {
        for (int i = 0; i < n; i++) {
          o[oo + i] = a[ao + i] - b[bo + i];
        }
      }
      case MUL -> {
        for (int i = 0; i < n; i++) {
          o[oo + i] = a[ao + i] * b[bo + i];
        }
      }
      case DIV -> {
        for (int i = 0; i < n; i++) {
          o[oo + i] = a[ao + i] / b[bo + i];
        }
      }
      case MAX -> {
        for (int i = 0; i < n; i++) {
          o[oo + i] = Math.max(a[ao + i], b[bo + i]);
        }
      }
      case MIN -> {
        for (int i = 0; i < n; i++) {
          o[oo + i] = Math.min(a[ao + i], b[bo + i]);
        }
      }
      case POW -> {
        for (int i = 0; i < n; i++) {
          o[oo + i] = (float) Math.pow(a[ao + i], b[bo + i]);
        }
      }
    }
  }

  private static void binaryF64(
      BinaryKind kind, double[] a, int ao, double[] b, int bo, double[] o, int oo, int n) {
    for (int i = 0; i < n; i++) {
      double x = a[ao + i];
      double y = b[bo + i];
      o[oo + i] = kind.applyF64(x, y);
    }
  }

  private static void binaryI32(
      BinaryKind kind, int[] a, int ao, int[] b, int bo, int[] o, int oo, int n) {
    for (int i = 0; i < n; i++) {
      int x = a[ao + i];
      int y = b[bo + i];
      o[oo + i] = kind.applyI32(x, y);
    }
  }

  /** Comparison of operands of type {@code dtype} into a boolean block. */
  static void compare(
      Direction dir, DType dtype, Object a, int ao, Object b, int bo, boolean[] o, int oo, int n) {
    switch (dtype) {
      case F32, BF16 -> {
        float[] x = (float[]) a;
        float[] y = (float[]) b;
        for (int i = 0; i < n; i++) {
          o[oo + i] = dir.test(x[ao + i], y[bo + i]);
        }
      }
      case F64 -> {
        double[] x = (double[]) a;
        double[] y = (double[]) b;
        for (int i = 0; i < n; i++) {
          o[oo + i] = dir.test(x[ao + i], y[bo + i]);
        }
      }
      case I32 -> {
        int[] x = (int[]) a;
        int[] y = (int[]) b;
        for (int i = 0; i < n; i++) {
          o[oo + i] = dir.test(x[ao + i], y[bo + i]);
        }
      }
      case PRED -> {
        boolean[] x = (boolean[]) a;
        boolean[] y = (boolean[]) b;
        for (int i = 0; i < n; i++) {
          o[oo + i] = dir.test(x[ao + i] ? 1 : 0, y[bo + i] ? 1 : 0);
        }
      }
    }
  }

  /** {@code out = pred ? t : f}; the branch-free array form vectorises for f32. */
  static void select(
      DType dtype,
      boolean[] p,
      int po,
      Object t,
      int to,
      Object f,
      int fo,
      Object out,
      int oo,
      int n) {
    switch (dtype) {
      case F32, BF16 -> {
        float[] x = (float[]) t;
        float[] y = (float[]) f;
        float[] o = (float[]) out;
        for (int i = 0; i < n; i++) {
          o[oo + i] = p[po + i] ? x[to + i] : y[fo + i];
        }
      }
      case F64 -> {
        double[] x = (double[]) t;
        double[] y = (double[]) f;
        double[] o = (double[]) out;
        for (int i = 0; i < n; i++) {
          o[oo + i] = p[po + i] ? x[to + i] : y[fo + i];
        }
      }
      case I32 -> {
        int[] x = (int[]) t;
        int[] y = (int[]) f;
        int[] o = (int[]) out;
        for (int i = 0; i < n; i++) {
          o[oo + i] = p[po + i] ? x[to + i] : y[fo + i];
        }
      }
      case PRED -> {
        boolean[] x = (boolean[]) t;
        boolean[] y = (boolean[]) f;
        boolean[] o = (boolean[]) out;
        for (int i = 0; i < n; i++) {
          o[oo + i] = p[po + i] ? x[to + i] : y[fo + i];
        }
      }
    }
  }
}
