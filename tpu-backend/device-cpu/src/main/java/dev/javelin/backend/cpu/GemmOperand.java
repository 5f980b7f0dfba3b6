package dev.javelin.backend.cpu;

import java.util.Arrays;

/**
 * One operand of a batched matrix product seen as (batch..., rows, cols) through a strided view of
 * a materialised value. When the rows and the cols each collapse to one stride and one of them is
 * unit, BLAS reads the operand in place (a transpose becomes a gemm flag); otherwise the operand is
 * {@link #packed} into a contiguous copy first.
 */
final class GemmOperand {
  private static final int ANY = Integer.MIN_VALUE;

  final int value;
  final int sourceSize;
  final StridedView view;
  final int batch;
  final int rows;
  final int cols;
  final boolean packed;
  final boolean trans;
  final int ld;

  /** Element offset of each batch item's matrix in the source (or in the packed copy). */
  final int[] batchOffsets;

  /**
   * @param view the operand in (batch dims..., row dims..., col dims...) order
   */
  GemmOperand(int value, int sourceSize, StridedView view, int batchRank, int rowRank) {
    this.value = value;
    this.sourceSize = sourceSize;
    this.view = view;
    int[] d = view.dims();
    int[] s = view.strides();
    this.batch = product(d, 0, batchRank);
    this.rows = product(d, batchRank, batchRank + rowRank);
    this.cols = product(d, batchRank + rowRank, d.length);
    int rs = groupStride(d, s, batchRank, batchRank + rowRank);
    int cs = groupStride(d, s, batchRank + rowRank, d.length);
    int ldNoTrans = rows == 1 ? Math.max(1, cols) : rs;
    int ldTrans = cols == 1 ? Math.max(1, rows) : cs;
    if (rs != -1 && cs != -1 && (cols <= 1 || cs == 1 || cs == ANY) && ldNoTrans >= cols) {
      this.packed = false;
      this.trans = false;
      this.ld = Math.max(1, ldNoTrans == ANY ? cols : ldNoTrans);
    } else if (rs != -1 && cs != -1 && (rows <= 1 || rs == 1 || rs == ANY) && ldTrans >= rows) {
      this.packed = false;
      this.trans = true;
      this.ld = Math.max(1, ldTrans == ANY ? rows : ldTrans);
    } else {
      this.packed = true;
      this.trans = false;
      this.ld = Math.max(1, cols);
    }
    this.batchOffsets = batchOffsets(d, s, batchRank, view.offset());
  }

  /** Elements BLAS will read from: the packed copy or the whole source array. */
  int stagedSize() {
    return packed ? batch * rows * cols : sourceSize;
  }

  /** Offset of element (row, col) of batch item b in the staged array. */
  int offset(int b, int row, int col) {
    int base = batchOffsets[b];
    return trans ? base + row + col * ld : base + row * ld + col;
  }

  private int[] batchOffsets(int[] d, int[] s, int batchRank, int offset) {
    int[] out = new int[batch];
    if (packed) {
      for (int b = 0; b < batch; b++) {
        out[b] = b * rows * cols;
      }
      return out;
    }
    int[] c = new int[batchRank];
    for (int b = 0; b < batch; b++) {
      int off = offset;
      for (int i = 0; i < batchRank; i++) {
        off += c[i] * s[i];
      }
      out[b] = off;
      for (int i = batchRank - 1; i >= 0 && ++c[i] == d[i]; i--) {
        c[i] = 0;
      }
    }
    return out;
  }

  private static int product(int[] d, int from, int to) {
    int p = 1;
    for (int i = from; i < to; i++) {
      p *= d[i];
    }
    return p;
  }

  /** The single stride of dims [from, to) merged, ANY when they hold one element, -1 if none. */
  private static int groupStride(int[] d, int[] s, int from, int to) {
    int stride = ANY;
    int span = 0;
    for (int i = to - 1; i >= from; i--) {
      if (d[i] == 1) {
        continue;
      }
      if (stride == ANY) {
        stride = s[i];
        span = s[i] * d[i];
      } else if (s[i] == span) {
        span = s[i] * d[i];
      } else {
        return -1;
      }
    }
    return stride;
  }

  @Override
  public String toString() {
    return String.format(
            "GemmOperand[%%%d %dx(%dx%d) %s ld=%d]",
            value, batch, rows, cols, packed ? "packed" : trans ? "T" : "N", ld)
        + (packed ? " " + view : "")
        + (batch > 1 ? " batch@" + Arrays.toString(Arrays.copyOf(batchOffsets, 2)) : "");
  }
}
