package dev.javelin.backend.cpu.bench;

import dev.javelin.backend.DType;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.cpu.CpuDevice;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.testing.Tensors;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.openblas.global.openblas_nolapack;

/**
 * Micro-benchmarks of the cpu device: sgemm through our path vs raw OpenBLAS (off-heap pointers,
 * and heap arrays through JNI), and elementwise throughput of fused chains vs a hand-written Java
 * loop. Prints a markdown table of medians. Run with {@code bench/cpu-device.sh}.
 */
public final class CpuBench {
  private static final int REPS = 7;

  private CpuBench() {}

  public static void main(String[] args) {
    Locale.setDefault(Locale.ROOT);
    Loader.load(openblas_nolapack.class);
    int threads = Runtime.getRuntime().availableProcessors();
    try (CpuDevice cpu = new CpuDevice(threads)) {
      System.out.printf(
          "# cpu device benchmark (%d cores, OpenBLAS kernel %s, load average %s)%n%n",
          threads, coreName(), loadAverage());
      String only = args.length > 0 ? args[0] : "all";
      if (only.equals("all") || only.equals("gemm")) {
        gemmTable(cpu, threads);
      }
      if (only.equals("all") || only.equals("elementwise")) {
        elementwiseTable(cpu);
      }
      if (only.equals("all") || only.equals("train")) {
        int batch = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        int tokens = args.length > 2 ? Integer.parseInt(args[2]) : 128;
        TrainStepProfile.run(cpu, ModelConfig.tiny(), "tiny", batch, tokens);
      }
    }
  }

  private static String coreName() {
    Loader.load(org.bytedeco.openblas.global.openblas_full.class);
    return org.bytedeco.openblas.global.openblas_full.openblas_get_corename().getString();
  }

  private static String loadAverage() {
    return String.format(
        "%.1f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }

  // --------------------------------------------------------------------------- gemm

  private static void gemmTable(CpuDevice cpu, int threads) {
    System.out.println("## sgemm GFLOP/s (median of " + REPS + ")");
    System.out.println();
    System.out.println(
        "GFLOP/s by wall-clock median; in brackets GFLOP per CPU-second of this process (all"
            + " threads), which a busy shared machine does not distort.");
    System.out.println();
    System.out.println(
        "| m x k x n | cpu device (Program) | raw OpenBLAS, "
            + threads
            + " threads, off-heap | raw OpenBLAS, "
            + threads
            + " threads, float[] via JNI |");
    System.out.println("|---|---|---|---|");
    int[][] sizes = {
      {512, 512, 512},
      {1024, 1024, 1024},
      {2048, 2048, 2048},
      {64, 512, 512},
      {8192, 512, 512},
      {8192, 512, 2048}
    };
    for (int[] s : sizes) {
      double flops = 2.0 * s[0] * s[1] * s[2];
      double ours = flops / ours(cpu, s[0], s[1], s[2]) / 1e9;
      double oursCpu = flops / lastCpuSeconds / 1e9;
      double raw = flops / rawOffHeap(s[0], s[1], s[2], threads) / 1e9;
      double rawCpu = flops / lastCpuSeconds / 1e9;
      double heap = flops / rawHeap(s[0], s[1], s[2], threads) / 1e9;
      double heapCpu = flops / lastCpuSeconds / 1e9;
      System.out.printf(
          "| %d x %d x %d | %.1f (%.1f) | %.1f (%.1f) | %.1f (%.1f) |%n",
          s[0], s[1], s[2], ours, oursCpu, raw, rawCpu, heap, heapCpu);
    }
    System.out.println();
  }

  private static double ours(CpuDevice cpu, int m, int k, int n) {
    GraphBuilder g = new GraphBuilder("gemm");
    Node a = g.parameter("a", DType.F32, Shape.of(m, k));
    Node b = g.parameter("b", DType.F32, Shape.of(k, n));
    Program p = g.build(g.matmul(a, b));
    Random rng = new Random(1);
    List<DeviceBuffer> args =
        List.of(
            cpu.upload(Tensors.uniform(rng, DType.F32, Shape.of(m, k), -1, 1)),
            cpu.upload(Tensors.uniform(rng, DType.F32, Shape.of(k, n), -1, 1)));
    try (Executable e = cpu.compile(p)) {
      return median(() -> e.run(args).forEach(DeviceBuffer::close));
    }
  }

  private static double rawOffHeap(int m, int k, int n, int threads) {
    try (FloatPointer a = random(m * k);
        FloatPointer b = random(k * n);
        FloatPointer c = new FloatPointer((long) m * n)) {
      openblas_nolapack.blas_set_num_threads(threads);
      try {
        return median(() -> sgemm(m, n, k, a, b, c));
      } finally {
        openblas_nolapack.blas_set_num_threads(1);
      }
    }
  }

  private static double rawHeap(int m, int k, int n, int threads) {
    float[] a = new float[m * k];
    float[] b = new float[k * n];
    float[] c = new float[m * n];
    Arrays.fill(a, 0.5f);
    Arrays.fill(b, 0.25f);
    openblas_nolapack.blas_set_num_threads(threads);
    try {
      return median(
          () ->
              openblas_nolapack.cblas_sgemm(
                  openblas_nolapack.CblasRowMajor,
                  openblas_nolapack.CblasNoTrans,
                  openblas_nolapack.CblasNoTrans,
                  m,
                  n,
                  k,
                  1f,
                  a,
                  k,
                  b,
                  n,
                  0f,
                  c,
                  n));
    } finally {
      openblas_nolapack.blas_set_num_threads(1);
    }
  }

  private static void sgemm(int m, int n, int k, FloatPointer a, FloatPointer b, FloatPointer c) {
    openblas_nolapack.cblas_sgemm(
        openblas_nolapack.CblasRowMajor,
        openblas_nolapack.CblasNoTrans,
        openblas_nolapack.CblasNoTrans,
        m,
        n,
        k,
        1f,
        a,
        k,
        b,
        n,
        0f,
        c,
        n);
  }

  private static FloatPointer random(int n) {
    float[] data = new float[n];
    Random rng = new Random(n);
    for (int i = 0; i < n; i++) {
      data[i] = rng.nextFloat() - 0.5f;
    }
    FloatPointer p = new FloatPointer((long) n);
    p.put(data);
    return p;
  }

  // ---------------------------------------------------------------------- elementwise

  private static void elementwiseTable(CpuDevice cpu) {
    int n = 1 << 23;
    System.out.println("## elementwise, " + n + " f32 elements (median of " + REPS + ")");
    System.out.println();
    System.out.println(
        "| program | kernels | ms (wall median) | GB/s (arrays read + written once) | CPU ms per run |");
    System.out.println("|---|---|---|---|---|");
    Random rng = new Random(2);
    Tensor x = Tensors.uniform(rng, DType.F32, Shape.of(n), -1, 1);
    Tensor y = Tensors.uniform(rng, DType.F32, Shape.of(n), -1, 1);
    float[] xs = ((Tensor.F32) x).data();
    float[] ys = ((Tensor.F32) y).data();
    float[] out = new float[n];
    double java =
        median(
            () -> {
              for (int i = 0; i < n; i++) {
                out[i] = xs[i] + ys[i];
              }
            });
    row("plain Java loop c = a + b (1 thread)", "-", java, 3L * 4 * n);
    GraphBuilder g = new GraphBuilder("add");
    Node a = g.parameter("a", DType.F32, Shape.of(n));
    Node b = g.parameter("b", DType.F32, Shape.of(n));
    run(cpu, g.build(g.add(a, b)), "a + b", List.of(x, y), 3L * 4 * n);
    g = new GraphBuilder("chain");
    a = g.parameter("a", DType.F32, Shape.of(n));
    b = g.parameter("b", DType.F32, Shape.of(n));
    Node h = g.mul(g.add(a, b), g.sub(a, b));
    h = g.max(g.mul(h, g.full(h, 0.5)), g.min(a, b));
    run(cpu, g.build(h), "max((a+b)(a-b)*0.5, min(a,b)): 6 ops", List.of(x, y), 3L * 4 * n);
    g = new GraphBuilder("silu");
    a = g.parameter("a", DType.F32, Shape.of(n));
    b = g.parameter("b", DType.F32, Shape.of(n));
    run(
        cpu,
        g.build(g.mul(g.mul(a, g.logistic(a)), b)),
        "silu(a) * b (exp-bound)",
        List.of(x, y),
        3L * 4 * n);
    int rows = n / 1024;
    g = new GraphBuilder("softmax");
    Shape s = Shape.of(rows, 1024);
    a = g.parameter("a", DType.F32, s);
    Node m = g.reduceMax(a, 1);
    Node e = g.exp(g.sub(a, g.broadcastInDim(m, s, 0)));
    Node sm = g.div(e, g.broadcastInDim(g.reduceSum(e, 1), s, 0));
    run(cpu, g.build(sm), "softmax over rows of 1024", List.of(new Tensor.F32(s, xs)), 2L * 4 * n);
    System.out.println();
  }

  private static void run(CpuDevice cpu, Program p, String what, List<Tensor> in, long bytes) {
    List<DeviceBuffer> args = new ArrayList<>();
    for (Tensor t : in) {
      args.add(cpu.upload(t));
    }
    try (Executable e = cpu.compile(p)) {
      double t = median(() -> e.run(args).forEach(DeviceBuffer::close));
      String kernels =
          String.valueOf(
              cpu.explain(p)
                  .lines()
                  .filter(l -> l.startsWith("  ") && !l.contains("slots"))
                  .count());
      row(what, kernels, t, bytes);
    }
  }

  private static void row(String what, String kernels, double seconds, long bytes) {
    System.out.printf(
        "| %s | %s | %.2f | %.1f | %.2f |%n",
        what, kernels, seconds * 1e3, bytes / seconds / 1e9, lastCpuSeconds * 1e3);
  }

  /** CPU seconds (all threads) of the runs timed by the last {@link #median} call, per run. */
  private static double lastCpuSeconds;

  /** Median wall seconds of REPS timed runs after at least 5 warm-up runs and 0.5 s. */
  static double median(Runnable r) {
    long warm = System.nanoTime();
    for (int i = 0; i < 5 || System.nanoTime() - warm < 500_000_000L; i++) {
      r.run();
    }
    double[] t = new double[REPS];
    long cpu0 = CpuTime.processNanos();
    for (int i = 0; i < REPS; i++) {
      long t0 = System.nanoTime();
      r.run();
      t[i] = (System.nanoTime() - t0) / 1e9;
    }
    lastCpuSeconds = (CpuTime.processNanos() - cpu0) / 1e9 / REPS;
    Arrays.sort(t);
    return t[REPS / 2];
  }
}
