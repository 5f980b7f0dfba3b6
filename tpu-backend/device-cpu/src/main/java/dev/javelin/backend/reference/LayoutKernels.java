package dev.javelin.backend.reference;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.Op.ReduceKind;
import java.util.List;

/**
 * Naive kernels that move elements around: broadcast, reduce, reshape, transpose, slice,
 * concatenate. Each walks the result (or operand) index space coordinate by coordinate.
 */
final class LayoutKernels {
  private LayoutKernels() {}

  static Value broadcastInDim(Value x, Shape out, int[] dims) {
    Value r = Value.zeros(x.dtype(), out);
    int[] src = new int[x.shape().rank()];
    for (int i = 0; i < r.data().length; i++) {
      int[] c = Coords.unravel(out, i);
      for (int k = 0; k < dims.length; k++) {
        src[k] = x.shape().dim(k) == 1 ? 0 : c[dims[k]];
      }
      r.data()[i] = x.get(Coords.ravel(x.shape(), src));
    }
    return r;
  }

  static Value reduce(Value x, ReduceKind kind, int[] dims, Shape out) {
    double init = initial(kind, x.dtype());
    double[] acc = new double[out.intSize()];
    java.util.Arrays.fill(acc, init);
    boolean[] reduced = new boolean[x.shape().rank()];
    for (int d : dims) {
      reduced[d] = true;
    }
    int[] kept = new int[out.rank()];
    for (int i = 0; i < x.data().length; i++) {
      int[] c = Coords.unravel(x.shape(), i);
      for (int d = 0, j = 0; d < c.length; d++) {
        if (!reduced[d]) {
          kept[j++] = c[d];
        }
      }
      int o = Coords.ravel(out, kept);
      double v = x.get(i);
      acc[o] =
          switch (kind) {
            case SUM -> acc[o] + v;
            case MAX -> Double.isNaN(v) || Double.isNaN(acc[o]) ? Double.NaN : Math.max(acc[o], v);
          };
    }
    for (int i = 0; i < acc.length; i++) {
      acc[i] = Value.round(x.dtype(), acc[i]);
    }
    return new Value(x.dtype(), out, acc);
  }

  private static double initial(ReduceKind kind, DType dtype) {
    return switch (kind) {
      case SUM -> 0;
      case MAX -> dtype == DType.I32 ? Integer.MIN_VALUE : Double.NEGATIVE_INFINITY;
    };
  }

  static Value reshape(Value x, Shape out) {
    return new Value(x.dtype(), out, x.data().clone());
  }

  static Value transpose(Value x, int[] permutation, Shape out) {
    Value r = Value.zeros(x.dtype(), out);
    int[] src = new int[permutation.length];
    for (int i = 0; i < r.data().length; i++) {
      int[] c = Coords.unravel(out, i);
      for (int k = 0; k < permutation.length; k++) {
        src[permutation[k]] = c[k];
      }
      r.data()[i] = x.get(Coords.ravel(x.shape(), src));
    }
    return r;
  }

  static Value slice(Value x, int[] start, int[] strides, Shape out) {
    Value r = Value.zeros(x.dtype(), out);
    int[] src = new int[start.length];
    for (int i = 0; i < r.data().length; i++) {
      int[] c = Coords.unravel(out, i);
      for (int k = 0; k < c.length; k++) {
        src[k] = start[k] + c[k] * strides[k];
      }
      r.data()[i] = x.get(Coords.ravel(x.shape(), src));
    }
    return r;
  }

  static Value concatenate(List<Value> parts, int dimension, Shape out) {
    Value r = Value.zeros(parts.get(0).dtype(), out);
    int offset = 0;
    for (Value p : parts) {
      for (int i = 0; i < p.data().length; i++) {
        int[] c = Coords.unravel(p.shape(), i);
        c[dimension] += offset;
        r.data()[Coords.ravel(out, c)] = p.get(i);
      }
      offset += p.shape().dim(dimension);
    }
    return r;
  }
}
