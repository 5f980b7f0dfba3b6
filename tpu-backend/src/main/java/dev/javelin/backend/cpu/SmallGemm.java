package dev.javelin.backend.cpu;

import java.util.Arrays;

/**
 * Products too small to pay for a BLAS call, as plain loops over the heap arrays. Attention makes
 * thousands of them per step (one per (row, kv head): 1×32 · 32×16 in a decode step, 5×32 · 32×17
 * in a GRPO micro-batch), and each OpenBLAS call costs a JNI transition, three pointer objects and
 * staged operands, far more than its few thousand flops.
 */
final class SmallGemm {
  /** Largest product (2·m·n·k flops per item) the loops take. */
  static final long MAX_FLOPS = 1L << 15;

  private SmallGemm() {}

  /**
   * {@code c[item] = op(A[item]) op(B[item])}, c row-major (m, n) at {@code item·m·n}; x and y are
   * the operands' staged arrays (the source or its packed copy), addressed by {@link
   * GemmOperand#offset}.
   */
  static void multiply(
      float[] x, GemmOperand a, float[] y, GemmOperand b, float[] c, int item, int m, int n) {
    int k = a.cols;
    int cBase = item * m * n;
    int aRow = a.trans ? 1 : a.ld; // stride between rows i of op(A)
    int aCol = a.trans ? a.ld : 1; // ... and between its columns p
    int a0 = a.offset(item, 0, 0);
    int b0 = b.offset(item, 0, 0);
    if (b.trans) { // op(B) column j is contiguous: c[i, j] = a_i · b_j
      for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
          int ai = a0 + i * aRow;
          int bj = b0 + j * b.ld;
          float s = 0f;
          for (int p = 0; p < k; p++) {
            s += x[ai + p * aCol] * y[bj + p];
          }
          c[cBase + i * n + j] = s;
        }
      }
    } else { // op(B) row p is contiguous: c[i, :] += a[i, p] · b[p, :]
      for (int i = 0; i < m; i++) {
        int ci = cBase + i * n;
        Arrays.fill(c, ci, ci + n, 0f);
        for (int p = 0; p < k; p++) {
          float av = x[a0 + i * aRow + p * aCol];
          int bp = b0 + p * b.ld;
          for (int j = 0; j < n; j++) {
            c[ci + j] += av * y[bp + j];
          }
        }
      }
    }
  }
}
