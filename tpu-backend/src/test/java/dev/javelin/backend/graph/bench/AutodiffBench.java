package dev.javelin.backend.graph.bench;

import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Autodiff;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.graph.VjpPrograms;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.program.ModelPrograms;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

/**
 * Benchmarks the VJP split of the policy's log-prob program under each {@link Remat} policy: graph
 * build time, the residuals the forward program hands to the backward program (bytes and count, at
 * the benchmark batch 64 x 128), and forward + backward wall time on a device at a smaller batch.
 * Prints a markdown table. Run with {@code bench/autodiff.sh}.
 *
 * <p>Arguments: {@code config (tiny|small) device runBatch runLength reps}.
 */
public final class AutodiffBench {
  private AutodiffBench() {}

  public static void main(String[] args) {
    Locale.setDefault(Locale.ROOT);
    ModelConfig c =
        args.length > 0 && args[0].equals("small") ? ModelConfig.small() : ModelConfig.tiny();
    String device = args.length > 1 ? args[1] : "cpu";
    int runB = args.length > 2 ? Integer.parseInt(args[2]) : 16;
    int runT = args.length > 3 ? Integer.parseInt(args[3]) : 128;
    int reps = args.length > 4 ? Integer.parseInt(args[4]) : 5;
    List<String> wrt = new ArrayList<>();
    for (WeightSpec s : WeightSpec.layout(c)) {
      wrt.add(s.name());
    }
    System.out.printf(
        "| remat | build ms (64x128) | residuals (64x128) | residual MB (64x128) | fwd+bwd ms"
            + " median (%s, %dx%d) |%n|---|---|---|---|---|%n",
        device, runB, runT);
    try (Device d = Devices.open(device)) {
      for (Remat remat : Remat.values()) {
        Program big = ModelPrograms.logProbs(c, 64, 128, c.maxPositions());
        long t0 = System.nanoTime();
        VjpPrograms split = Autodiff.vjp(big, wrt, Set.of(0, 1), remat);
        double buildMs = (System.nanoTime() - t0) / 1e6;
        long[] res = residuals(split);
        Program small = ModelPrograms.logProbs(c, runB, runT, c.maxPositions());
        double runMs = medianRunMs(d, Autodiff.vjp(small, wrt, Set.of(0, 1), remat), reps);
        System.out.printf(
            "| %s | %.0f | %d | %.1f | %.0f |%n", remat, buildMs, res[0], res[1] / 1e6, runMs);
      }
    }
  }

  /** Count and bytes of residuals computed by the forward program (not its arguments). */
  private static long[] residuals(VjpPrograms split) {
    long count = 0;
    long bytes = 0;
    for (int i = 0; i < split.residuals().size(); i++) {
      if (split.residuals().get(i).source() == VjpPrograms.Residual.Source.FORWARD_RESULT) {
        Node p = split.backward().parameters().get(i);
        count++;
        bytes += p.shape().size() * p.dtype().byteSize();
      }
    }
    return new long[] {count, bytes};
  }

  private static double medianRunMs(Device d, VjpPrograms split, int reps) {
    Program fwd = split.forward();
    Random rng = new Random(1);
    List<DeviceBuffer> args = new ArrayList<>();
    for (Node p : fwd.parameters()) {
      args.add(d.upload(input(p, rng)));
    }
    List<DeviceBuffer> cts = new ArrayList<>();
    for (int i : split.cotangentOutputs()) {
      Node o = fwd.outputs().get(i);
      float[] x = new float[o.shape().intSize()];
      Arrays.fill(x, 1e-3f);
      cts.add(d.upload(new Tensor.F32(o.shape(), x)));
    }
    Executable fe = d.compile(fwd);
    Executable be = d.compile(split.backward());
    double[] ms = new double[reps];
    for (int k = 0; k < reps; k++) {
      long t0 = System.nanoTime();
      List<DeviceBuffer> results = fe.run(args);
      List<DeviceBuffer> grads = be.run(split.backwardArguments(args, results, cts));
      ms[k] = (System.nanoTime() - t0) / 1e6;
      results.forEach(DeviceBuffer::close);
      grads.forEach(DeviceBuffer::close);
    }
    Arrays.sort(ms);
    return ms[reps / 2];
  }

  /** Plausible inputs: small random weights, ids in range, positions 0..T-1, masks of ones. */
  private static Tensor input(Node p, Random rng) {
    String name = ((Op.Parameter) p.op()).name();
    int n = p.shape().intSize();
    if (p.dtype() == DType.I32) {
      int last = p.shape().rank() == 0 ? 1 : p.shape().dim(p.shape().rank() - 1);
      int[] x = new int[n];
      for (int i = 0; i < n; i++) {
        x[i] = name.contains("position") ? i % last : rng.nextInt(1000);
      }
      return new Tensor.I32(p.shape(), x);
    }
    float[] x = new float[n];
    boolean ones =
        name.contains("mask")
            || name.contains("temperature")
            || name.endsWith("norm.weight")
            || name.contains("layernorm");
    for (int i = 0; i < n; i++) {
      x[i] = ones ? 1f : (float) (rng.nextGaussian() * 0.05);
    }
    return new Tensor.F32(p.shape(), x);
  }
}
