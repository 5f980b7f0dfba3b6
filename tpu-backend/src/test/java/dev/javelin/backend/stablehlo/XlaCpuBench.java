package dev.javelin.backend.stablehlo;

import dev.javelin.backend.Device;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.program.ModelPrograms;
import dev.javelin.backend.program.SlotPrograms;
import dev.javelin.backend.program.TrainPrograms;
import dev.javelin.backend.stablehlo.XlaCpuScript.Case;
import dev.javelin.backend.testing.ModelInputs;
import dev.javelin.backend.testing.PgLoss;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Benchmark, not a test: the same model programs on our {@code cpu} device and on XLA:CPU (the
 * StableHLO text compiled by jaxlib with full optimisation), median seconds per run, one table.
 *
 * <pre>
 * ./mvnw -B -o -q install -DskipTests -pl tpu-backend -am
 * ./mvnw -B -o -q exec:java -pl tpu-backend -Dexec.classpathScope=test -Djavelin.root=$PWD \
 *   -Dexec.mainClass=dev.javelin.backend.stablehlo.XlaCpuBench -Dexec.args="tiny 8 128 5"
 * </pre>
 *
 * Arguments: config ({@code tiny} | {@code small}), batch, sequence length, repeats.
 */
public final class XlaCpuBench {
  private XlaCpuBench() {}

  public static void main(String[] args) throws Exception {
    String name = arg(args, 0, "tiny");
    ModelConfig c =
        switch (name) {
          case "tiny" -> ModelConfig.tiny();
          case "small" -> ModelConfig.small();
          default -> throw new IllegalArgumentException("config must be tiny or small: " + name);
        };
    int b = Integer.parseInt(arg(args, 1, "8"));
    int t = Integer.parseInt(arg(args, 2, "128"));
    int repeats = Integer.parseInt(arg(args, 3, "5"));
    int p = c.maxPositions();
    int slots = Math.min(p, t + 8);
    List<Case> cases = new ArrayList<>();
    List<Integer> tokens = new ArrayList<>();
    Program train = TrainPrograms.fused(c, b, t, p, new PgLoss(), AdamWConfig.defaults());
    cases.add(new Case("train_step", train, ModelInputs.of(c, train, t, slots - 1, new Random(1))));
    tokens.add(b * t);
    Program logp = ModelPrograms.logProbs(c, b, t, p);
    cases.add(new Case("logprobs", logp, ModelInputs.of(c, logp, t, slots - 1, new Random(2))));
    tokens.add(b * t);
    Program decode = SlotPrograms.decode(c, b, slots, p);
    cases.add(
        new Case("decode_step", decode, ModelInputs.of(c, decode, 1, slots - 1, new Random(3))));
    tokens.add(b);

    Path dir = Files.createTempDirectory("xla-bench");
    long printStart = System.nanoTime();
    int chars = StableHloPrinter.print(train).length();
    System.out.printf(
        "StableHLO of train_step: %d chars, printed in %.3f s%n",
        chars, (System.nanoTime() - printStart) / 1e9);
    Map<String, XlaCpuScript.Result> xla =
        XlaCpuScript.fromSystemProperty().run(cases, dir, repeats, true);
    System.out.printf(
        "%n| program (%s, B=%d, T=%d) | cpu device s | XLA:CPU s | cpu tokens/s | XLA tokens/s |%n",
        name, b, t);
    System.out.println("| --- | --- | --- | --- | --- |");
    try (Device cpu = Devices.open("cpu")) {
      for (int i = 0; i < cases.size(); i++) {
        Case k = cases.get(i);
        double ours = medianSeconds(cpu, k, repeats);
        double theirs = xla.get(k.name()).medianSeconds();
        System.out.printf(
            "| %s | %.4f | %.4f | %.0f | %.0f |%n",
            k.name(), ours, theirs, tokens.get(i) / ours, tokens.get(i) / theirs);
      }
    }
  }

  private static double medianSeconds(Device device, Case k, int repeats) {
    List<DeviceBuffer> args = new ArrayList<>();
    for (Tensor x : k.inputs()) {
      args.add(device.upload(x));
    }
    Executable exe = device.compile(k.program());
    exe.run(args); // warm-up: buffer plan, JIT
    double[] s = new double[repeats];
    for (int r = 0; r < repeats; r++) {
      long start = System.nanoTime();
      exe.run(args);
      s[r] = (System.nanoTime() - start) / 1e9;
    }
    Arrays.sort(s);
    return s[repeats / 2];
  }

  private static String arg(String[] args, int i, String dflt) {
    return args.length > i ? args[i] : dflt;
  }
}
