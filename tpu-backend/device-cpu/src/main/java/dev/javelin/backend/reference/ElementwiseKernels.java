package dev.javelin.backend.reference;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.Op.BinaryKind;
import dev.javelin.backend.graph.Op.Direction;
import dev.javelin.backend.graph.Op.UnaryKind;

/**
 * Naive elementwise kernels: one loop each, math in double, results rounded to the element type.
 * Integer arithmetic wraps like two's-complement i32 and divides truncating toward zero, as
 * StableHLO specifies.
 */
final class ElementwiseKernels {
  private ElementwiseKernels() {}

  static Value constant(double value, DType dtype, Shape shape) {
    Value out = Value.zeros(dtype, shape);
    java.util.Arrays.fill(out.data(), Value.round(dtype, value));
    return out;
  }

  static Value iota(DType dtype, Shape shape, int dimension) {
    Value out = Value.zeros(dtype, shape);
    for (int i = 0; i < out.data().length; i++) {
      out.data()[i] = Value.round(dtype, Coords.unravel(shape, i)[dimension]);
    }
    return out;
  }

  static Value unary(UnaryKind kind, Value x) {
    Value out = Value.zeros(x.dtype(), x.shape());
    for (int i = 0; i < out.data().length; i++) {
      out.data()[i] = Value.round(x.dtype(), unary(kind, x.dtype(), x.get(i)));
    }
    return out;
  }

  private static double unary(UnaryKind kind, DType dtype, double v) {
    return switch (kind) {
      case NEG -> dtype == DType.I32 ? (double) (int) -(long) v : -v;
      case EXP -> Math.exp(v);
      case LOG -> Math.log(v);
      case TANH -> Math.tanh(v);
      case LOGISTIC -> 1.0 / (1.0 + Math.exp(-v));
      case RSQRT -> 1.0 / Math.sqrt(v);
      case SQRT -> Math.sqrt(v);
      case ABS -> Math.abs(v);
    };
  }

  static Value binary(BinaryKind kind, Value a, Value b) {
    Value out = Value.zeros(a.dtype(), a.shape());
    boolean integer = a.dtype() == DType.I32;
    for (int i = 0; i < out.data().length; i++) {
      double r =
          integer
              ? kind.applyI32((int) a.get(i), (int) b.get(i))
              : kind.applyF64(a.get(i), b.get(i));
      out.data()[i] = Value.round(a.dtype(), r);
    }
    return out;
  }

  static Value compare(Direction direction, Value a, Value b) {
    Value out = Value.zeros(DType.PRED, a.shape());
    for (int i = 0; i < out.data().length; i++) {
      out.data()[i] = direction.test(a.get(i), b.get(i)) ? 1 : 0;
    }
    return out;
  }

  static Value select(Value pred, Value onTrue, Value onFalse) {
    Value out = Value.zeros(onTrue.dtype(), onTrue.shape());
    for (int i = 0; i < out.data().length; i++) {
      out.data()[i] = pred.get(i) != 0 ? onTrue.get(i) : onFalse.get(i);
    }
    return out;
  }

  /** Float to integer truncates toward zero (NaN to 0, saturating); anything to PRED is != 0. */
  static Value convert(Value x, DType to) {
    Value out = Value.zeros(to, x.shape());
    for (int i = 0; i < out.data().length; i++) {
      double v = x.get(i);
      out.data()[i] = to == DType.I32 ? (int) v : Value.round(to, v);
    }
    return out;
  }
}
