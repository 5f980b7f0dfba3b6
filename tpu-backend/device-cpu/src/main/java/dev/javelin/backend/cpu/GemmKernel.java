package dev.javelin.backend.cpu;

import dev.javelin.backend.Bf16;
import dev.javelin.backend.DType;
import org.bytedeco.javacpp.FloatPointer;

/**
 * {@code dot_general} as batched row-major gemms: {@code C[b] = op(A[b]) op(B[b])} with C of shape
 * (batch, M, N). Batch items are spread over the workers; a single product is split along its
 * larger side, each part a single-threaded OpenBLAS call. f64 (reference checks only) uses a plain
 * Java loop.
 */
final class GemmKernel implements Kernel {
  /** Smallest share of a product's flops worth handing to another thread. */
  private static final long MIN_CHUNK_FLOPS = 1L << 19;

  private final int out;
  private final DType dtype;
  private final boolean roundResult;
  private final GemmOperand a;
  private final GemmOperand b;
  private final int m;
  private final int n;
  private final int k;
  private final Parallel parallel;
  private final Staging staging;

  GemmKernel(
      int out, DType dtype, GemmOperand a, GemmOperand b, Parallel parallel, Staging staging) {
    if (!Conversions.floatArray(dtype) && dtype != DType.F64) {
      throw new IllegalArgumentException(
          "cpu device: dot_general needs f32, bf16 or f64, got " + dtype);
    }
    if (a.batch != b.batch || a.cols != b.rows) {
      throw new IllegalArgumentException("gemm operands do not match: " + a + " x " + b);
    }
    this.out = out;
    // bf16 operands are floats already, so every float product runs as sgemm (f32 accumulation);
    // a bf16 result is rounded afterwards.
    this.dtype = dtype == DType.BF16 ? DType.F32 : dtype;
    this.roundResult = dtype == DType.BF16;
    this.a = a;
    this.b = b;
    this.m = a.rows;
    this.n = b.cols;
    this.k = a.cols;
    this.parallel = parallel;
    this.staging = staging;
  }

  @Override
  public void run(Frame frame) {
    compute(frame);
    if (roundResult) {
      Bf16.roundInPlace((float[]) frame.values[out], 0, a.batch * m * n);
    }
  }

  private void compute(Frame frame) {
    if (dtype == DType.F64) {
      runF64(frame);
      return;
    }
    int size = a.batch * m * n;
    if (k == 0) {
      java.util.Arrays.fill((float[]) frame.values[out], 0, size, 0f);
      return;
    }
    float[] c = (float[]) frame.values[out];
    if (2L * m * n * k <= SmallGemm.MAX_FLOPS) {
      runSmall(frame, c);
      return;
    }
    FloatPointer pa = stage(frame, a, 0, pack(a, 0));
    FloatPointer pb = stage(frame, b, 1, pack(b, 1));
    FloatPointer pc = staging.get(2, size);
    boolean splitRows = m >= n;
    int side = splitRows ? m : n;
    long itemFlops = 2L * m * n * k;
    // A lone product is cut into a few parts of at least 32 rows or cols, two per thread, so that a
    // descheduled thread's share is picked up by the other; more parts would make OpenBLAS re-pack
    // the shared operand more often (+10 % CPU at 8 parts of a 1024x128x512 product).
    int splits =
        a.batch >= parallel.threads()
            ? 1
            : Math.max(1, Math.min(side / 32, 2 * parallel.threads()));
    // Threads only for work worth a hand-off: chunks of >= MIN_CHUNK_FLOPS, so the 256 tiny
    // per-head attention products of a micro-batch are shared by the workers too.
    long unitFlops = Math.max(1, itemFlops / splits);
    int grain = (int) Math.min(Integer.MAX_VALUE, (MIN_CHUNK_FLOPS + unitFlops - 1) / unitFlops);
    parallel.forRange(
        a.batch * splits,
        grain,
        (w, from, to) -> {
          for (int t = from; t < to; t++) {
            int item = t / splits;
            int part = t % splits;
            int lo = (int) ((long) side * part / splits);
            int hi = (int) ((long) side * (part + 1) / splits);
            if (hi > lo) {
              multiply(pa, pb, pc, c, item, splitRows, lo, hi);
            }
          }
        });
    if (!splitRows) {
      pc.position(0).get(c, 0, size);
    }
  }

  /**
   * One part of one product. A part of whole rows also copies its rows of C back to the heap (they
   * are contiguous), so that copy runs in parallel too; column parts are copied back at the end.
   */
  private void multiply(
      FloatPointer pa,
      FloatPointer pb,
      FloatPointer pc,
      float[] c,
      int item,
      boolean rows,
      int lo,
      int hi) {
    int mm = rows ? hi - lo : m;
    int nn = rows ? n : hi - lo;
    FloatPointer va = new FloatPointer(pa).position(a.offset(item, rows ? lo : 0, 0));
    FloatPointer vb = new FloatPointer(pb).position(b.offset(item, 0, rows ? 0 : lo));
    FloatPointer vc =
        new FloatPointer(pc).position((long) item * m * n + (rows ? (long) lo * n : lo));
    Blas.sgemm(a.trans, b.trans, mm, nn, k, va, a.ld, vb, b.ld, vc, n);
    if (rows) {
      vc.get(c, (int) vc.position(), mm * n);
    }
  }

  /** Every item by {@link SmallGemm}, straight from the heap arrays (packed first if strided). */
  private void runSmall(Frame frame, float[] c) {
    float[] x = heapOperand(frame, a, (float[]) pack(a, 0));
    float[] y = heapOperand(frame, b, (float[]) pack(b, 1));
    long itemFlops = 2L * m * n * k;
    int grain = (int) Math.max(1, MIN_CHUNK_FLOPS / Math.max(1, itemFlops));
    parallel.forRange(
        a.batch,
        grain,
        (w, from, to) -> {
          for (int item = from; item < to; item++) {
            SmallGemm.multiply(x, a, y, b, c, item, m, n);
          }
        });
  }

  private static float[] heapOperand(Frame frame, GemmOperand op, float[] pack) {
    float[] src = (float[]) frame.values[op.value];
    if (!op.packed) {
      return src;
    }
    op.view.merged().read(DType.F32, src, 0, op.stagedSize(), pack, 0);
    return pack;
  }

  /** The operand in native memory: its buffer's mirror, or a staged copy. */
  private FloatPointer stage(Frame frame, GemmOperand op, int slot, Object pack) {
    CpuBuffer arg = frame.arguments[op.value];
    if (arg != null && !op.packed) {
      return arg.mirror();
    }
    float[] src = (float[]) frame.values[op.value];
    FloatPointer p = staging.get(slot, op.stagedSize());
    if (op.packed) {
      op.view.merged().read(DType.F32, src, 0, op.stagedSize(), pack, 0);
      src = (float[]) pack;
    }
    p.position(0).put(src, 0, op.stagedSize());
    return p;
  }

  private void runF64(Frame frame) {
    double[] x = packF64(frame, a, (double[]) pack(a, 0));
    double[] y = packF64(frame, b, (double[]) pack(b, 1));
    double[] c = (double[]) frame.values[out];
    for (int item = 0; item < a.batch; item++) {
      for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
          double s = 0;
          for (int p = 0; p < k; p++) {
            s += x[a.offset(item, i, p)] * y[b.offset(item, p, j)];
          }
          c[(item * m + i) * n + j] = s;
        }
      }
    }
  }

  private static double[] packF64(Frame frame, GemmOperand op, double[] pack) {
    double[] src = (double[]) frame.values[op.value];
    if (!op.packed) {
      return src;
    }
    op.view.merged().read(DType.F64, src, 0, op.stagedSize(), pack, 0);
    return pack;
  }

  /** The executable's shared heap copy for a strided operand, or null when it is read in place. */
  private Object pack(GemmOperand op, int slot) {
    return op.packed ? staging.pack(slot, dtype, op.stagedSize()) : null;
  }

  @Override
  public int[] reads() {
    return a.value == b.value ? new int[] {a.value} : new int[] {a.value, b.value};
  }

  @Override
  public int writes() {
    return out;
  }

  /** Products by path and shape, so a profile tells the attention's small ones from the BLAS. */
  @Override
  public String profileKey() {
    String path = 2L * m * n * k <= SmallGemm.MAX_FLOPS ? "small" : "blas";
    return "GemmKernel " + path + " " + a.batch + "x(" + m + "x" + k + " . " + k + "x" + n + ")";
  }

  @Override
  public String toString() {
    return "Gemm[%" + out + " = " + a + " x " + b + "]";
  }
}
