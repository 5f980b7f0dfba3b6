package dev.javelin.backend.cpu;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An affine read of a materialised array: element {@code c} (coordinates in the view's shape) is
 * {@code source[offset + sum(c[d] * strides[d])]}. Broadcast (stride 0), transpose (permuted
 * strides) and slice (offset, scaled strides) are all views, and views of views compose, so none of
 * them has to be materialised before an elementwise consumer reads it.
 *
 * <p>Adjacent dimensions that are contiguous in the source are merged, so a read walks long runs
 * (copied with {@code arraycopy} or filled) instead of single elements.
 */
record StridedView(int offset, int[] dims, int[] strides) {

  /** The identity view of a row-major array of {@code shape}. */
  static StridedView identity(Shape shape) {
    return new StridedView(0, shape.dims(), shape.strides());
  }

  /** This view broadcast into {@code out}: view dim i becomes result dim {@code map[i]}. */
  StridedView broadcast(Shape out, int[] map) {
    int[] s = new int[out.rank()];
    for (int i = 0; i < map.length; i++) {
      s[map[i]] = dims[i] == 1 ? 0 : strides[i];
    }
    return new StridedView(offset, out.dims(), s);
  }

  /** Result dim i is this view's dim {@code permutation[i]}. */
  StridedView transpose(int[] permutation) {
    int[] d = new int[permutation.length];
    int[] s = new int[permutation.length];
    for (int i = 0; i < permutation.length; i++) {
      d[i] = dims[permutation[i]];
      s[i] = strides[permutation[i]];
    }
    return new StridedView(offset, d, s);
  }

  StridedView slice(int[] start, int[] step, Shape out) {
    int off = offset;
    int[] s = new int[dims.length];
    for (int i = 0; i < dims.length; i++) {
      off += start[i] * strides[i];
      s[i] = strides[i] * step[i];
    }
    return new StridedView(off, out.dims(), s);
  }

  /** Whether the view reads its source as one contiguous row-major run from {@code offset}. */
  boolean isContiguous() {
    StridedView m = merged();
    return m.dims.length == 0 || (m.dims.length == 1 && m.strides[0] == 1);
  }

  /** An equivalent view with contiguous neighbours merged and size-1 dims dropped. */
  StridedView merged() {
    List<int[]> kept = new ArrayList<>();
    for (int i = 0; i < dims.length; i++) {
      if (dims[i] == 1) {
        continue;
      }
      if (!kept.isEmpty()) {
        int[] last = kept.get(kept.size() - 1);
        if (last[1] == strides[i] * dims[i]) {
          last[0] *= dims[i];
          last[1] = strides[i];
          continue;
        }
      }
      kept.add(new int[] {dims[i], strides[i]});
    }
    int[] d = new int[kept.size()];
    int[] s = new int[kept.size()];
    for (int i = 0; i < d.length; i++) {
      d[i] = kept.get(i)[0];
      s[i] = kept.get(i)[1];
    }
    return new StridedView(offset, d, s);
  }

  /**
   * Reads view elements {@code [start, start + n)} (row-major over the view's dims) into {@code
   * out[oo...]}. Call on a {@link #merged()} view.
   */
  void read(DType dtype, Object src, int start, int n, Object out, int oo) {
    int rank = dims.length;
    if (rank == 0) {
      Conversions.fill(dtype, Conversions.read(dtype, src, offset), out, oo, n);
      return;
    }
    int[] c = new int[rank];
    int rem = start;
    int pos = offset;
    for (int d = rank - 1; d >= 0; d--) {
      c[d] = rem % dims[d];
      rem /= dims[d];
      pos += c[d] * strides[d];
    }
    int last = rank - 1;
    int done = 0;
    while (done < n) {
      int run = Math.min(dims[last] - c[last], n - done);
      readRun(dtype, src, pos, strides[last], run, out, oo + done);
      done += run;
      pos += run * strides[last];
      c[last] += run;
      for (int d = last; d > 0 && c[d] == dims[d]; d--) {
        pos -= c[d] * strides[d];
        c[d] = 0;
        c[d - 1]++;
        pos += strides[d - 1];
      }
    }
  }

  private static void readRun(
      DType dtype, Object src, int pos, int stride, int n, Object out, int oo) {
    if (stride == 1) {
      System.arraycopy(src, pos, out, oo, n);
    } else if (stride == 0) {
      Conversions.fill(dtype, Conversions.read(dtype, src, pos), out, oo, n);
    } else {
      switch (dtype) {
        case F32, BF16 -> {
          float[] s = (float[]) src;
          float[] o = (float[]) out;
          for (int i = 0; i < n; i++) {
            o[oo + i] = s[pos + i * stride];
          }
        }
        case F64 -> {
          double[] s = (double[]) src;
          double[] o = (double[]) out;
          for (int i = 0; i < n; i++) {
            o[oo + i] = s[pos + i * stride];
          }
        }
        case I32 -> {
          int[] s = (int[]) src;
          int[] o = (int[]) out;
          for (int i = 0; i < n; i++) {
            o[oo + i] = s[pos + i * stride];
          }
        }
        case PRED -> {
          boolean[] s = (boolean[]) src;
          boolean[] o = (boolean[]) out;
          for (int i = 0; i < n; i++) {
            o[oo + i] = s[pos + i * stride];
          }
        }
      }
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StridedView v
        && v.offset == offset
        && Arrays.equals(v.dims, dims)
        && Arrays.equals(v.strides, strides);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * offset + Arrays.hashCode(dims)) + Arrays.hashCode(strides);
  }

  @Override
  public String toString() {
    return "View[" + offset + ", " + Arrays.toString(dims) + ", " + Arrays.toString(strides) + "]";
  }
}
