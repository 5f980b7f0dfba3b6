package dev.javelin.backend.xla;

import dev.javelin.backend.Device;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Donation;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.program.ModelPrograms;
import dev.javelin.backend.program.SlotPrograms;
import dev.javelin.backend.program.TrainPrograms;
import dev.javelin.backend.testing.ModelInputs;
import dev.javelin.backend.testing.PgLoss;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Benchmark, not a test: model programs on {@code cpu} and on {@code xla:cpu} through our PJRT
 * binding, with inputs resident on the device (only the first output is downloaded per run).
 * Reports median seconds per run, the cold compile time and the compile-cache-hit load time.
 *
 * <pre>
 * ./mvnw -B -o -q install -DskipTests -pl tpu-backend -am
 * ./mvnw -B -o -q exec:java -pl tpu-backend -Dexec.classpathScope=test -Djavelin.root=$PWD \
 *   -Dexec.mainClass=dev.javelin.backend.xla.XlaDeviceBench -Dexec.args="tiny 8 128 5"
 * </pre>
 */
public final class XlaDeviceBench {
  private XlaDeviceBench() {}

  /** One program to time, with its arguments and the tokens it processes per run. */
  private record Case(String name, Program program, List<Tensor> args, int tokens) {}

  public static void main(String[] args) throws Exception {
    String config = args.length > 0 ? args[0] : "tiny";
    ModelConfig c =
        switch (config) {
          case "tiny" -> ModelConfig.tiny();
          case "small" -> ModelConfig.small();
          default -> throw new IllegalArgumentException("config must be tiny or small: " + config);
        };
    int b = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    int t = args.length > 2 ? Integer.parseInt(args[2]) : 128;
    int repeats = args.length > 3 ? Integer.parseInt(args[3]) : 5;
    int p = c.maxPositions();
    int slots = Math.min(p, t + 8);
    Program train = TrainPrograms.fused(c, b, t, p, new PgLoss(), AdamWConfig.defaults());
    Program logp = ModelPrograms.logProbs(c, b, t, p);
    Program decode = SlotPrograms.decode(c, b, slots, p);
    List<Case> cases =
        List.of(
            new Case("train_step", train, ModelInputs.of(c, train, t, 0), b * t),
            new Case("logprobs", logp, ModelInputs.of(c, logp, t, 0), b * t),
            new Case("decode_step", decode, ModelInputs.of(c, decode, 1, slots - 1), b));
    Path cacheDir = Files.createTempDirectory("javelin-xla-bench");
    PluginDiscovery.Result found = PluginDiscovery.fromProcess().find("xla:cpu");
    PjrtPlugin plugin =
        PjrtPlugin.load(
            found.plugin().orElseThrow(() -> new IllegalStateException(found.describe("xla:cpu"))));
    System.out.printf(
        "%s B=%d T=%d, PJRT plugin %s (API %s), median of %d runs%n",
        config, b, t, plugin.path().getFileName(), plugin.version(), repeats);
    System.out.println(
        "| program | cpu s | xla:cpu s | cpu tokens/s | xla tokens/s | xla compile s | cache-hit load s |");
    System.out.println("| --- | --- | --- | --- | --- | --- | --- |");
    try (Device cpu = Devices.open("cpu");
        XlaDevice cold = XlaDevice.open("xla:cpu", plugin, Optional.of(cacheDir));
        XlaDevice warm = XlaDevice.open("xla:cpu", plugin, Optional.of(cacheDir))) {
      for (Case k : cases) {
        double compile = timeCompile(cold, k.program());
        double load = timeCompile(warm, k.program()); // a fresh device: disk cache hit
        double onCpu = median(cpu, k, repeats);
        double onXla = median(cold, k, repeats);
        System.out.printf(
            "| %s | %.4f | %.4f | %.0f | %.0f | %.2f | %.3f |%n",
            k.name(), onCpu, onXla, k.tokens() / onCpu, k.tokens() / onXla, compile, load);
      }
      List<String> names = WeightSpec.layout(c).stream().map(WeightSpec::name).toList();
      Case k = cases.get(0);
      double inPlace = median(cold, k, repeats, TrainPrograms.fusedInPlace(k.program(), names));
      System.out.printf(
          "| train_step, weights+m+v donated | | %.4f | | %.0f | | |%n",
          inPlace, k.tokens() / inPlace);
    }
    try (var files = Files.walk(cacheDir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }

  private static double timeCompile(Device d, Program program) {
    long start = System.nanoTime();
    d.compile(program).close();
    return (System.nanoTime() - start) / 1e9;
  }

  private static double median(Device d, Case k, int repeats) {
    return median(d, k, repeats, Donation.none());
  }

  private static double median(Device d, Case k, int repeats, Donation donation) {
    List<DeviceBuffer> in = new ArrayList<>();
    k.args().forEach(a -> in.add(d.upload(a)));
    double[] times = new double[repeats];
    try (Executable exe = d.compile(k.program(), donation)) {
      runOnce(exe, in, donation); // warm-up
      for (int r = 0; r < repeats; r++) {
        long start = System.nanoTime();
        runOnce(exe, in, donation);
        times[r] = (System.nanoTime() - start) / 1e9;
      }
    } finally {
      in.forEach(DeviceBuffer::close);
    }
    Arrays.sort(times);
    return times[repeats / 2];
  }

  /** One run; donated inputs are replaced by the outputs that now hold their memory. */
  private static void runOnce(Executable exe, List<DeviceBuffer> in, Donation donation) {
    List<DeviceBuffer> out = new ArrayList<>(exe.run(in));
    out.get(0).toHost();
    donation
        .aliases()
        .forEach(
            (param, output) -> {
              in.set(param, out.get(output));
              out.set(output, null);
            });
    out.stream().filter(b -> b != null).forEach(DeviceBuffer::close);
  }
}
