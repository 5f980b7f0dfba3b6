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
        dotRow(x, a0 + i * aRow, aCol, y, b0, b.ld, c, cBase + i * n, n, k);
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

  /**
   * {@code c[ci + j] = sum_p x[ai + p·aCol] · y[b0 + j·ld + p]} for j < n. Four columns at a time:
   * each sum still adds its terms in order p = 0, 1, ... (bitwise the plain loop), but four
   * independent sums keep the core busy where one waits on each add (scores in decode attention).
   */
  private static void dotRow(
      float[] x, int ai, int aCol, float[] y, int b0, int ld, float[] c, int ci, int n, int k) {
    int j = 0;
    for (; j + 4 <= n; j += 4) {
      int y0 = b0 + j * ld;
      int y1 = y0 + ld;
      int y2 = y1 + ld;
      int y3 = y2 + ld;
      float s0 = 0f;
      float s1 = 0f;
      float s2 = 0f;
      float s3 = 0f;
      for (int p = 0; p < k; p++) {
        float av = x[ai + p * aCol];
        s0 += av * y[y0 + p];
        s1 += av * y[y1 + p];
        s2 += av * y[y2 + p];
        s3 += av * y[y3 + p];
      }
      c[ci + j] = s0;
      c[ci + j + 1] = s1;
      c[ci + j + 2] = s2;
      c[ci + j + 3] = s3;
    }
    for (; j < n; j++) {
      int yj = b0 + j * ld;
      float s = 0f;
      for (int p = 0; p < k; p++) {
        s += x[ai + p * aCol] * y[yj + p];
      }
      c[ci + j] = s;
    }
  }
}
