package dev.javelin.backend.cpu;

import dev.javelin.backend.Bf16;
import dev.javelin.backend.DType;
import dev.javelin.backend.graph.Op.ReduceKind;
import java.util.Arrays;

/**
 * Sum or max over the middle axis of an operand laid out as (outer, R, inner), the operand being a
 * fused expression evaluated block by block (so {@code reduce_sum(x * x)} never materialises {@code
 * x * x}). Accumulation is in double for every type, which makes f32 sums as accurate as the
 * reference device's and keeps i32 sums exact.
 */
final class ReduceKernel implements Kernel {
  private static final int BLOCK = BlockProgram.BLOCK;

  private final int out;
  private final ReduceKind kind;
  private final DType dtype;
  private final int outer;
  private final int reduced;
  private final int inner;
  private final BlockProgram operand;
  private final Parallel parallel;
  private final BlockProgram.Scratch[] scratch;
  private final double[][] acc;

  ReduceKernel(
      int out,
      ReduceKind kind,
      DType dtype,
      int outer,
      int reduced,
      int inner,
      BlockProgram operand,
      Parallel parallel) {
    if (dtype == DType.PRED) {
      throw new IllegalArgumentException("reduce over PRED is not supported by the cpu device");
    }
    this.out = out;
    this.kind = kind;
    this.dtype = dtype;
    this.outer = outer;
    this.reduced = reduced;
    this.inner = inner;
    this.operand = operand;
    this.parallel = parallel;
    this.scratch = new BlockProgram.Scratch[parallel.threads()];
    this.acc = new double[parallel.threads()][BLOCK];
    for (int w = 0; w < scratch.length; w++) {
      scratch[w] = operand.newScratch();
    }
  }

  @Override
  public void run(Frame frame) {
    Object dest = frame.values[out];
    int chunks = (inner + BLOCK - 1) / BLOCK;
    int tasks = outer * chunks;
    // Each task owns disjoint outputs, so workers never share an accumulator.
    int work = Math.max(1, reduced * Math.min(inner, BLOCK));
    int grain = Math.max(1, 16384 / work);
    parallel.forRange(
        tasks,
        grain,
        (w, from, to) -> {
          if (inner == 1) {
            reduceRows(frame, scratch[w], dest, from, to);
            return;
          }
          for (int t = from; t < to; t++) {
            int o = t / chunks;
            int j0 = (t % chunks) * BLOCK;
            int n = Math.min(BLOCK, inner - j0);
            reduceColumns(frame, scratch[w], acc[w], o, j0, n);
            for (int k = 0; k < n; k++) {
              writeOut(dest, o * inner + j0 + k, acc[w][k]);
            }
          }
        });
    BlockProgram.Scratch.release(scratch);
  }

  /**
   * inner == 1: outputs {@code [from, to)}, each a row of {@code reduced} contiguous elements.
   * Short rows (a softmax over 16 keys) are evaluated many to a block, so the fused operand's
   * per-call cost is paid once per block instead of once per row; each row still folds alone.
   */
  private void reduceRows(Frame frame, BlockProgram.Scratch s, Object dest, int from, int to) {
    if (reduced == 0 || reduced > BLOCK / 2) {
      for (int o = from; o < to; o++) {
        writeOut(dest, o, reduceRow(frame, s, o));
      }
      return;
    }
    int perBlock = BLOCK / reduced;
    int last = operand.size() - 1;
    for (int o0 = from; o0 < to; o0 += perBlock) {
      int rows = Math.min(perBlock, to - o0);
      operand.eval(frame, s, o0 * reduced, rows * reduced, null, 0);
      for (int r = 0; r < rows; r++) {
        writeOut(dest, o0 + r, fold(s.arrays[last], s.offsets[last] + r * reduced, reduced));
      }
    }
  }

  private double initial() {
    return kind == ReduceKind.SUM
        ? 0
        : dtype == DType.I32 ? Integer.MIN_VALUE : Double.NEGATIVE_INFINITY;
  }

  /** inner == 1: one output per row of {@code reduced} contiguous elements. */
  private double reduceRow(Frame frame, BlockProgram.Scratch s, int o) {
    double r = initial();
    long base = (long) o * reduced;
    for (int r0 = 0; r0 < reduced; r0 += BLOCK) {
      int n = Math.min(BLOCK, reduced - r0);
      int last = operand.size() - 1;
      operand.eval(frame, s, (int) (base + r0), n, null, 0);
      r = combine(r, fold(s.arrays[last], s.offsets[last], n));
    }
    return r;
  }

  private void reduceColumns(
      Frame frame, BlockProgram.Scratch s, double[] a, int o, int j0, int n) {
    Arrays.fill(a, 0, n, initial());
    int last = operand.size() - 1;
    for (int r = 0; r < reduced; r++) {
      int start = (o * reduced + r) * inner + j0;
      operand.eval(frame, s, start, n, null, 0);
      accumulate(s.arrays[last], s.offsets[last], n, a);
    }
  }

  private double combine(double a, double b) {
    return kind == ReduceKind.SUM ? a + b : Math.max(a, b);
  }

  /** Sum or max of a block. */
  private double fold(Object arr, int off, int n) {
    if (Conversions.floatArray(dtype)) {
      float[] x = (float[]) arr;
      return kind == ReduceKind.SUM ? sumF32(x, off, n) : maxF32(x, off, n);
    }
    double r = initial();
    for (int i = 0; i < n; i++) {
      r = combine(r, Conversions.read(dtype, arr, off + i));
    }
    return r;
  }

  /** Four double accumulators break the add dependency chain. */
  private static double sumF32(float[] x, int off, int n) {
    double a0 = 0;
    double a1 = 0;
    double a2 = 0;
    double a3 = 0;
    int i = 0;
    for (; i + 3 < n; i += 4) {
      a0 += x[off + i];
      a1 += x[off + i + 1];
      a2 += x[off + i + 2];
      a3 += x[off + i + 3];
    }
    for (; i < n; i++) {
      a0 += x[off + i];
    }
    return (a0 + a1) + (a2 + a3);
  }

  /**
   * A plain comparison (rarely taken branch) instead of {@code Math.max}, whose NaN and signed-zero
   * handling costs several times more per element; NaN is tracked on the side and wins.
   */
  private static double maxF32(float[] x, int off, int n) {
    float m = Float.NEGATIVE_INFINITY;
    boolean nan = false;
    for (int i = 0; i < n; i++) {
      float v = x[off + i];
      nan |= Float.isNaN(v);
      m = v > m ? v : m;
    }
    return nan ? Double.NaN : m;
  }

  private void accumulate(Object arr, int off, int n, double[] a) {
    boolean sum = kind == ReduceKind.SUM;
    if (Conversions.floatArray(dtype)) {
      float[] x = (float[]) arr;
      if (sum) {
        for (int k = 0; k < n; k++) {
          a[k] += x[off + k];
        }
      } else {
        for (int k = 0; k < n; k++) {
          a[k] = Math.max(a[k], x[off + k]);
        }
      }
    } else {
      for (int k = 0; k < n; k++) {
        a[k] = combine(a[k], Conversions.read(dtype, arr, off + k));
      }
    }
  }

  private void writeOut(Object dest, int i, double v) {
    switch (dtype) {
      case F32 -> ((float[]) dest)[i] = (float) v;
      case BF16 -> ((float[]) dest)[i] = Bf16.round(v); // accumulated in double, rounded once
      case F64 -> ((double[]) dest)[i] = v;
      case I32 -> ((int[]) dest)[i] = (int) (long) v;
      case PRED -> throw new IllegalStateException("unreachable: PRED reduce");
    }
  }

  @Override
  public int[] reads() {
    return operand.reads();
  }

  @Override
  public int writes() {
    return out;
  }

  @Override
  public String toString() {
    return "Reduce" + kind + "[%" + out + " (" + outer + "," + reduced + "," + inner + ")]";
  }
}
