package dev.javelin.backend.cpu.bench;

import dev.javelin.backend.DType;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Shape;
import dev.javelin.backend.cpu.CpuDevice;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.testing.Tensors;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Function;

/**
 * The hot kernels of an arith-grpo trainer micro-batch (64 samples x 16 tokens, d = 128, F = 512, 4
 * heads of 32), each as a one-kernel program, timed on the cpu device with 1 and 2 workers: median
 * wall microseconds and CPU microseconds per run (all threads of the process). Run with {@code
 * bench/cpu-kernels.sh}.
 */
public final class ArithKernelBench {
  private static final int ROWS = 1024;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private ArithKernelBench() {}

  private record Case(String name, List<Shape> params, Function<List<Node>, Node> body) {}

  public static void main(String[] args) {
    Locale.setDefault(Locale.ROOT);
    int reps = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    List<Case> cases = cases();
    System.out.println(
        "| kernel | 1 worker: wall us (caller cpu us) | 2 workers: wall us (caller cpu us) |");
    System.out.println("|---|---|---|");
    try (CpuDevice one = new CpuDevice(1);
        CpuDevice two = new CpuDevice(2)) {
      for (Case c : cases) {
        double[] a = time(one, c, reps);
        double[] b = time(two, c, reps);
        System.out.printf("| %s | %.0f (%.0f) | %.0f (%.0f) |%n", c.name(), a[0], a[1], b[0], b[1]);
      }
    }
  }

  private static List<Case> cases() {
    Shape x = Shape.of(ROWS, 128);
    Shape h = Shape.of(ROWS, 512);
    Shape w = Shape.of(512, 128);
    List<Case> out = new ArrayList<>();
    out.add(new Case("gemm x·Wᵀ 1024x128x512", List.of(x, w), p -> mmT(p.get(0), p.get(1))));
    out.add(new Case("gemm h·W 1024x512x128", List.of(h, w), p -> mm(p.get(0), p.get(1))));
    out.add(
        new Case(
            "gemm hᵀ·x 512x1024x128 (weight grad)", List.of(h, x), p -> tm(p.get(0), p.get(1))));
    Shape q = Shape.of(64, 4, 16, 32);
    out.add(
        new Case(
            "batched q·kᵀ 256x(16x32x16)",
            List.of(q, q),
            p -> g().dotGeneral(p.get(0), p.get(1), B01, B01, new int[] {3}, new int[] {3})));
    Shape pr = Shape.of(64, 4, 16, 16);
    out.add(
        new Case(
            "batched p·v 256x(16x16x32)",
            List.of(pr, q),
            p -> g().dotGeneral(p.get(0), p.get(1), B01, B01, new int[] {3}, new int[] {2})));
    out.add(new Case("silu(g)·u 1024x512", List.of(h, h), p -> siluMul(p.get(0), p.get(1))));
    out.add(new Case("logistic 1024x512", List.of(h), p -> g().logistic(p.get(0))));
    out.add(new Case("swiglu vjp (8 mul/add) 1024x512", List.of(h, h, h), ArithKernelBench::vjp));
    out.add(new Case("a·b 1024x512", List.of(h, h), p -> g().mul(p.get(0), p.get(1))));
    out.add(
        new Case(
            "row sums of x·y 4096x16",
            List.of(Shape.of(4096, 16), Shape.of(4096, 16)),
            p -> g().reduceSum(g().mul(p.get(0), p.get(1)), 1)));
    Shape s = Shape.of(64, 4, 16, 16);
    out.add(new Case("softmax 64x4x16x16", List.of(s), p -> softmax(p.get(0))));
    return out;
  }

  private static final int[] B01 = {0, 1};
  private static GraphBuilder current;

  private static GraphBuilder g() {
    return current;
  }

  private static Node mmT(Node a, Node b) {
    return current.matmulTransposed(a, b);
  }

  private static Node mm(Node a, Node b) {
    return current.matmul(a, b);
  }

  private static Node tm(Node a, Node b) {
    return current.dotGeneral(a, b, new int[0], new int[0], new int[] {0}, new int[] {0});
  }

  private static Node siluMul(Node gate, Node up) {
    return current.mul(current.mul(gate, current.logistic(gate)), up);
  }

  private static Node vjp(List<Node> p) {
    GraphBuilder b = current;
    Node s = p.get(2);
    Node one = b.full(s, 1.0);
    Node t = b.mul(p.get(0), p.get(1));
    Node u = b.mul(t, s);
    Node v = b.mul(t, p.get(2));
    Node w = b.mul(s, b.sub(one, s));
    return b.add(u, b.mul(v, w));
  }

  private static Node softmax(Node x) {
    GraphBuilder b = current;
    Node m = b.broadcastInDim(b.reduceMax(x, 3), x.shape(), 0, 1, 2);
    Node e = b.exp(b.sub(x, m));
    return b.div(e, b.broadcastInDim(b.reduceSum(e, 3), x.shape(), 0, 1, 2));
  }

  /** {median wall us, median cpu us} over {@code reps} runs after as many warm-up runs. */
  private static double[] time(CpuDevice cpu, Case c, int reps) {
    current = new GraphBuilder(c.name());
    List<Node> params = new ArrayList<>();
    for (int i = 0; i < c.params().size(); i++) {
      params.add(current.parameter("p" + i, DType.F32, c.params().get(i)));
    }
    Program p = current.build(c.body().apply(params));
    Random rng = new Random(1);
    List<DeviceBuffer> args = new ArrayList<>();
    for (Shape s : c.params()) {
      args.add(cpu.upload(Tensors.uniform(rng, DType.F32, s, -2, 2)));
    }
    double[] wall = new double[reps];
    double[] cpuUs = new double[reps];
    try (Executable e = cpu.compile(p)) {
      for (int i = 0; i < reps; i++) {
        e.run(args).forEach(DeviceBuffer::close);
      }
      for (int i = 0; i < reps; i++) {
        long c0 = THREADS.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        e.run(args).forEach(DeviceBuffer::close);
        wall[i] = (System.nanoTime() - t0) / 1e3;
        cpuUs[i] = (THREADS.getCurrentThreadCpuTime() - c0) / 1e3;
      }
    }
    args.forEach(DeviceBuffer::close);
    Arrays.sort(wall);
    Arrays.sort(cpuUs);
    return new double[] {wall[reps / 2], cpuUs[reps / 2]};
  }
}
