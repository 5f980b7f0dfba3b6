package dev.javelin.backend.reference;

import dev.javelin.backend.Bf16;
import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;

/**
 * A tensor as the reference interpreter sees it: every element held as a double, already rounded to
 * its element type (f32 and bf16 values are exactly representable floats, i32 values are ints, PRED
 * is 0 or 1). One representation keeps each kernel a single obviously-correct loop.
 */
@SuppressWarnings(
    "ArrayRecordComponent") // internal; never compared or hashed, data is shared on purpose
record Value(DType dtype, Shape shape, double[] data) {

  Value {
    if (data.length != shape.size()) {
      throw new IllegalArgumentException(
          "value of shape " + shape + " has " + data.length + " elements");
    }
  }

  static Value zeros(DType dtype, Shape shape) {
    return new Value(dtype, shape, new double[shape.intSize()]);
  }

  double get(int i) {
    return data[i];
  }

  /** Rounds a double to what the element type can hold, as storing it would. */
  static double round(DType dtype, double v) {
    return switch (dtype) {
      case F32 -> (float) v;
      case BF16 -> Bf16.round(v);
      case F64 -> v;
      case I32 -> (int) (long) v;
      case PRED -> v != 0 ? 1 : 0;
    };
  }

  static Value fromTensor(Tensor t) {
    int n = t.shape().intSize();
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      d[i] = t.getDouble(i);
    }
    return new Value(t.dtype(), t.shape(), d);
  }

  private float[] floats() {
    float[] f = new float[data.length];
    for (int i = 0; i < f.length; i++) {
      f[i] = (float) data[i];
    }
    return f;
  }

  Tensor toTensor() {
    int n = data.length;
    return switch (dtype) {
      case F32 -> new Tensor.F32(shape, floats());
      case BF16 -> new Tensor.BF16(shape, floats());
      case F64 -> new Tensor.F64(shape, data.clone());
      case I32 -> {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
          a[i] = (int) data[i];
        }
        yield new Tensor.I32(shape, a);
      }
      case PRED -> {
        boolean[] b = new boolean[n];
        for (int i = 0; i < n; i++) {
          b[i] = data[i] != 0;
        }
        yield new Tensor.Pred(shape, b);
      }
    };
  }
}
