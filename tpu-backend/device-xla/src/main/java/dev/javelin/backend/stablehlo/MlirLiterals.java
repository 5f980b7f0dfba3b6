package dev.javelin.backend.stablehlo;

import dev.javelin.backend.Bf16;
import dev.javelin.backend.DType;

/**
 * Scalar literals as MLIR writes them inside {@code dense<...>}. Finite floats are printed as the
 * shortest decimal that round-trips at their width; infinities and NaN as the IEEE bit pattern in
 * hex, the only spelling MLIR accepts for them.
 */
final class MlirLiterals {
  private MlirLiterals() {}

  /** The literal for {@code value} converted to {@code dtype}, as the graph's constant means it. */
  static String of(double value, DType dtype) {
    return switch (dtype) {
      case F32 -> f32((float) value);
      case BF16 -> bf16(Bf16.round(value));
      case F64 -> f64(value);
      case I32 -> Integer.toString(toI32(value));
      case PRED -> value != 0 ? "true" : "false";
    };
  }

  /** The identity of a reduction: 0 for sum, the lowest value for max. */
  static String lowest(DType dtype) {
    return switch (dtype) {
      case F32 -> f32(Float.NEGATIVE_INFINITY);
      case BF16 -> bf16(Float.NEGATIVE_INFINITY);
      case F64 -> f64(Double.NEGATIVE_INFINITY);
      case I32 -> Integer.toString(Integer.MIN_VALUE);
      case PRED -> "false";
    };
  }

  private static String f32(float v) {
    if (Float.isFinite(v)) {
      return decimal(Float.toString(v));
    }
    return String.format("0x%08X", Float.floatToRawIntBits(v));
  }

  /** A bf16 value (held in a float): its f32 decimal parses back to exactly it. */
  private static String bf16(float v) {
    if (Float.isFinite(v)) {
      return decimal(Float.toString(v));
    }
    return String.format("0x%04X", Bf16.floatToBf16(v));
  }

  private static String f64(double v) {
    if (Double.isFinite(v)) {
      return decimal(Double.toString(v));
    }
    return String.format("0x%016X", Double.doubleToRawLongBits(v));
  }

  /** Java prints {@code 1.0E-5}; MLIR accepts either case, and lower case is how MLIR prints. */
  private static String decimal(String javaRepr) {
    return javaRepr.replace('E', 'e');
  }

  private static int toI32(double value) {
    if (value != Math.rint(value) || value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("i32 constant is not an i32 value: " + value);
    }
    return (int) value;
  }
}
