package dev.javelin.backend;

import java.util.Arrays;

/** A static tensor shape: non-negative dimension sizes, row-major. Rank 0 is a scalar. */
public final class Shape {
  private static final Shape SCALAR = new Shape(new int[0]);
  private final int[] dims;
  private final long size;

  private Shape(int[] dims) {
    long n = 1;
    for (int d : dims) {
      if (d < 0) {
        throw new IllegalArgumentException("negative dimension in shape " + Arrays.toString(dims));
      }
      n = Math.multiplyExact(n, d);
    }
    this.dims = dims;
    this.size = n;
  }

  public static Shape of(int... dims) {
    return dims.length == 0 ? SCALAR : new Shape(dims.clone());
  }

  public static Shape scalar() {
    return SCALAR;
  }

  public int rank() {
    return dims.length;
  }

  public int dim(int axis) {
    return dims[axis];
  }

  /** A copy of the dimension sizes. */
  public int[] dims() {
    return dims.clone();
  }

  /** Number of elements. */
  public long size() {
    return size;
  }

  /** Number of elements as an int, for host arrays; fails for tensors over 2^31 elements. */
  public int intSize() {
    return Math.toIntExact(size);
  }

  /** Row-major strides in elements. */
  public int[] strides() {
    int[] s = new int[dims.length];
    int acc = 1;
    for (int i = dims.length - 1; i >= 0; i--) {
      s[i] = acc;
      acc *= dims[i];
    }
    return s;
  }

  /** The MLIR tensor type, e.g. {@code tensor<2x3xf32>} or {@code tensor<f32>}. */
  public String mlirType(DType dtype) {
    StringBuilder sb = new StringBuilder("tensor<");
    for (int d : dims) {
      sb.append(d).append('x');
    }
    return sb.append(dtype.mlirName()).append('>').toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Shape other && Arrays.equals(dims, other.dims);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(dims);
  }

  @Override
  public String toString() {
    return Arrays.toString(dims);
  }
}
