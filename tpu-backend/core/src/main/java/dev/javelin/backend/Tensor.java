package dev.javelin.backend;

import java.util.Arrays;

/**
 * A tensor in host memory: a shape and a flat row-major array of one element type. One record per
 * element type keeps the hot loops monomorphic.
 */
public sealed interface Tensor {

  Shape shape();

  DType dtype();

  /** f32 data. */
  record F32(Shape shape, float[] data) implements Tensor {
    public F32 {
      checkLength(shape, data.length);
    }

    public static F32 zeros(Shape shape) {
      return new F32(shape, new float[shape.intSize()]);
    }

    @Override
    public DType dtype() {
      return DType.F32;
    }
  }

  /**
   * bf16 data held as floats, each already a bf16 value: the constructor rounds {@code data} in
   * place (to nearest even), so this is the tensor's storage. Floats rather than shorts because
   * every device computes bf16 in f32 (or double) and rounds, and a rounded float widens for free;
   * {@link Bf16#floatToBf16} gives the 16-bit pattern where one is stored or transferred.
   */
  record BF16(Shape shape, float[] data) implements Tensor {
    public BF16 {
      checkLength(shape, data.length);
      Bf16.roundInPlace(data, 0, data.length);
    }

    @Override
    public DType dtype() {
      return DType.BF16;
    }
  }

  /** f64 data, for reference checks. */
  record F64(Shape shape, double[] data) implements Tensor {
    public F64 {
      checkLength(shape, data.length);
    }

    @Override
    public DType dtype() {
      return DType.F64;
    }
  }

  /** i32 data: token ids, positions, indices. */
  record I32(Shape shape, int[] data) implements Tensor {
    public I32 {
      checkLength(shape, data.length);
    }

    @Override
    public DType dtype() {
      return DType.I32;
    }
  }

  /** Boolean data, the result of comparisons. */
  record Pred(Shape shape, boolean[] data) implements Tensor {
    public Pred {
      checkLength(shape, data.length);
    }

    @Override
    public DType dtype() {
      return DType.PRED;
    }
  }

  static Tensor.F32 of(float[] data, int... dims) {
    return new F32(Shape.of(dims), data);
  }

  static Tensor.I32 ofInts(int[] data, int... dims) {
    return new I32(Shape.of(dims), data);
  }

  static Tensor.F32 scalar(float v) {
    return new F32(Shape.scalar(), new float[] {v});
  }

  /** Zeros of the given type and shape. */
  static Tensor zeros(DType dtype, Shape shape) {
    int n = shape.intSize();
    return switch (dtype) {
      case F32 -> new F32(shape, new float[n]);
      case BF16 -> new BF16(shape, new float[n]);
      case F64 -> new F64(shape, new double[n]);
      case I32 -> new I32(shape, new int[n]);
      case PRED -> new Pred(shape, new boolean[n]);
    };
  }

  /** Element i as a double, whatever the type (booleans are 0/1). */
  default double getDouble(int i) {
    if (this instanceof F32 t) {
      return t.data()[i];
    } else if (this instanceof BF16 t) {
      return t.data()[i];
    } else if (this instanceof F64 t) {
      return t.data()[i];
    } else if (this instanceof I32 t) {
      return t.data()[i];
    }
    return ((Pred) this).data()[i] ? 1 : 0;
  }

  /** A readable summary for error messages. */
  default String describe() {
    return dtype().mlirName() + shape();
  }

  private static void checkLength(Shape shape, int length) {
    if (shape.size() != length) {
      throw new IllegalArgumentException(
          "data length " + length + " does not match shape " + shape + " (" + shape.size() + ")");
    }
  }

  /** Copies the data of a float tensor; a convenience for tests. */
  static float[] copyOf(F32 t) {
    return Arrays.copyOf(t.data(), t.data().length);
  }
}
