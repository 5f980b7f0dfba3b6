package dev.javelin.backend.cpu.bench;

import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.cpu.CpuDevice;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.program.TrainPrograms;
import dev.javelin.backend.testing.ModelInputs;
import dev.javelin.backend.testing.PgLoss;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where a fused train step (forward, backward, AdamW) spends its time on the cpu device: wall time
 * per kernel kind, and the GFLOP/s reached inside the matrix products.
 */
final class TrainStepProfile {
  private static final int STEPS = 3;

  private TrainStepProfile() {}

  static void run(CpuDevice cpu, ModelConfig c, String label, int b, int t) {
    Program p =
        TrainPrograms.fused(c, b, t, c.maxPositions(), new PgLoss(), AdamWConfig.defaults());
    List<DeviceBuffer> args = new ArrayList<>();
    for (Tensor x : ModelInputs.of(c, p, t, 0)) {
      args.add(cpu.upload(x));
    }
    long compile0 = System.nanoTime();
    try (Executable e = cpu.compile(p)) {
      double compileMs = (System.nanoTime() - compile0) / 1e6;
      e.run(args).forEach(DeviceBuffer::close);
      cpu.resetProfile();
      cpu.setProfiling(true);
      long cpu0 = CpuTime.processNanos();
      long t0 = System.nanoTime();
      for (int i = 0; i < STEPS; i++) {
        e.run(args).forEach(DeviceBuffer::close);
      }
      double stepMs = (System.nanoTime() - t0) / 1e6 / STEPS;
      double cpuMs = (CpuTime.processNanos() - cpu0) / 1e6 / STEPS;
      cpu.setProfiling(false);
      Map<String, Long> prof = cpu.profile();
      long total = prof.values().stream().mapToLong(Long::longValue).sum();
      double flops = 3 * 2.0 * c.parameterCount() * b * t; // fwd + 2x bwd, matmul flops
      System.out.printf(
          "## train step, %s (%.1fM params), batch %d x %d tokens, %d steps%n%n",
          label, c.parameterCount() / 1e6, b, t, STEPS);
      System.out.printf(
          "%d nodes; compile %.0f ms; step %.0f ms wall = %.0f tokens/s; %.0f ms of process CPU"
              + " time per step (%.0f GFLOP/s per busy core)%n%n",
          p.nodes().size(),
          compileMs,
          stepMs,
          b * t / (stepMs / 1e3),
          cpuMs,
          flops / (cpuMs / 1e3) / 1e9);
      System.out.println("| kernel kind | ms per step | share |");
      System.out.println("|---|---|---|");
      prof.entrySet().stream()
          .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
          .forEach(
              en ->
                  System.out.printf(
                      "| %s | %.1f | %.1f%% |%n",
                      en.getKey(), en.getValue() / 1e6 / STEPS, 100.0 * en.getValue() / total));
      double gemmSec =
          prof.entrySet().stream()
                  .filter(en -> en.getKey().startsWith("GemmKernel"))
                  .mapToLong(Map.Entry::getValue)
                  .sum()
              / 1e9
              / STEPS;
      System.out.printf(
          "%nmatmul GFLOP/s inside GemmKernel (~6 N flops per token): %.1f%n%n",
          flops / gemmSec / 1e9);
    }
    args.forEach(DeviceBuffer::close);
  }
}
