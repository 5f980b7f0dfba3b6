package dev.javelin.backend.cpu;

import dev.javelin.backend.Bf16;
import dev.javelin.backend.DType;
import java.util.Arrays;

/**
 * Element type conversion and constant fills on blocks. Float to integer truncates toward zero (NaN
 * to 0, saturating); anything to PRED tests {@code != 0}; PRED reads as 0 or 1. bf16 values live in
 * float arrays, already rounded; writing one rounds to nearest even.
 */
final class Conversions {
  private Conversions() {}

  static void convert(DType from, Object a, int ao, DType to, Object out, int oo, int n) {
    if (floatArray(from) && (to == DType.F32 || from == to)) {
      System.arraycopy(a, ao, out, oo, n); // widening bf16 to f32 is exact
      return;
    }
    switch (to) {
      case F32 -> {
        float[] o = (float[]) out;
        for (int i = 0; i < n; i++) {
          o[oo + i] = (float) read(from, a, ao + i);
        }
      }
      case BF16 -> {
        float[] o = (float[]) out;
        for (int i = 0; i < n; i++) {
          o[oo + i] = Bf16.round(read(from, a, ao + i));
        }
      }
      case F64 -> {
        double[] o = (double[]) out;
        for (int i = 0; i < n; i++) {
          o[oo + i] = read(from, a, ao + i);
        }
      }
      case I32 -> {
        int[] o = (int[]) out;
        for (int i = 0; i < n; i++) {
          o[oo + i] = (int) read(from, a, ao + i);
        }
      }
      case PRED -> {
        boolean[] o = (boolean[]) out;
        for (int i = 0; i < n; i++) {
          o[oo + i] = read(from, a, ao + i) != 0;
        }
      }
    }
  }

  /** One element as a double; exact for every type we hold. */
  static double read(DType dtype, Object a, int i) {
    return switch (dtype) {
      case F32, BF16 -> ((float[]) a)[i];
      case F64 -> ((double[]) a)[i];
      case I32 -> ((int[]) a)[i];
      case PRED -> ((boolean[]) a)[i] ? 1 : 0;
    };
  }

  /** Fills {@code out[oo, oo + n)} with {@code value} rounded to the element type. */
  static void fill(DType dtype, double value, Object out, int oo, int n) {
    switch (dtype) {
      case F32 -> Arrays.fill((float[]) out, oo, oo + n, (float) value);
      case BF16 -> Arrays.fill((float[]) out, oo, oo + n, Bf16.round(value));
      case F64 -> Arrays.fill((double[]) out, oo, oo + n, value);
      case I32 -> Arrays.fill((int[]) out, oo, oo + n, (int) value);
      case PRED -> Arrays.fill((boolean[]) out, oo, oo + n, value != 0);
    }
  }

  /** Whether values of the type live in a float array (f32, and bf16 rounded). */
  static boolean floatArray(DType dtype) {
    return dtype == DType.F32 || dtype == DType.BF16;
  }

  /** Bytes per element of the array holding the type (a bf16 value takes a float). */
  static int arrayBytes(DType dtype) {
    return dtype == DType.BF16 ? 4 : dtype.byteSize();
  }

  /** A new array of the element type. */
  static Object allocate(DType dtype, int n) {
    return switch (dtype) {
      case F32, BF16 -> new float[n];
      case F64 -> new double[n];
      case I32 -> new int[n];
      case PRED -> new boolean[n];
    };
  }
}
