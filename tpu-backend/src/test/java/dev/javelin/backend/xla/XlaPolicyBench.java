package dev.javelin.backend.xla;

import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.batch.TokenBatch;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.LrSchedule;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.backend.runtime.PolicyOptimizer;
import dev.javelin.backend.runtime.SlotDecoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Benchmark, not a test: the paths the trainer and the samplers really take, on {@code cpu} and
 * {@code xla:cpu} with the same model and inputs. A train step is {@link PolicyOptimizer#step} (VJP
 * split: log-probs down, host NLL cotangents up, backward, AdamW with weights and moments donated);
 * a decode step is {@link SlotDecoder#step} (KV cache donated). Prints median seconds and tokens/s,
 * the bytes a step moves across the host boundary on xla, each program's cold compile time, and the
 * start time (device open → first train step + first decode step done) with an empty compile cache
 * and again with the disk cache a first run left.
 *
 * <pre>
 * ./mvnw -B -o -q install -DskipTests -pl tpu-backend -am
 * ./mvnw -B -o -q exec:java -pl tpu-backend -Dexec.classpathScope=test -Djavelin.root=$PWD \
 *   -Dexec.mainClass=dev.javelin.backend.xla.XlaPolicyBench -Dexec.args="tiny 8 128 5 32"
 * </pre>
 */
public final class XlaPolicyBench {
  private XlaPolicyBench() {}

  /** Sizes: B rows, T tokens per train row, prompt length for decode, repeats, decode steps. */
  private record Sizes(int rows, int length, int prompt, int repeats, int decodeSteps) {}

  public static void main(String[] args) throws Exception {
    String name = args.length > 0 ? args[0] : "tiny";
    ModelConfig c =
        switch (name) {
          case "tiny" -> ModelConfig.tiny();
          case "small" -> ModelConfig.small();
          default -> throw new IllegalArgumentException("config must be tiny or small: " + name);
        };
    int b = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    int t = args.length > 2 ? Integer.parseInt(args[2]) : 128;
    int repeats = args.length > 3 ? Integer.parseInt(args[3]) : 5;
    int steps = args.length > 4 ? Integer.parseInt(args[4]) : 32;
    Sizes z = new Sizes(b, t, 16, repeats, steps);
    ModelCheckpoint weights = ModelCheckpoint.random(c, 1, 0.02);
    long params = weights.weights().values().stream().mapToLong(w -> w.shape().size()).sum();
    System.out.printf(
        "%s (%d parameters: weights + m + v = %.1f MB on the device) B=%d T=%d, decode %d steps"
            + " after a %d-token prompt, median of %d%n",
        name, params, params * 12 / 1e6, b, t, steps, z.prompt(), repeats);

    Path cache = Files.createTempDirectory("javelin-xla-policy-bench");
    List<String> compiles = new ArrayList<>();
    Handler log = capture(compiles);
    Logger xlaLog = Logger.getLogger(XlaDevice.class.getName());
    xlaLog.addHandler(log);
    try {
      double cold = startTime(weights, z, cache);
      List<String> coldCompiles = new ArrayList<>(compiles);
      compiles.clear();
      double warm = startTime(weights, z, cache);
      System.out.printf(
          "start (open → first train + decode step): cold %.2f s, disk-cache hit %.2f s%n",
          cold, warm);
      System.out.println("programs compiled cold: " + coldCompiles);
      System.out.println("programs loaded warm:   " + compiles);
    } finally {
      xlaLog.removeHandler(log);
    }
    System.setProperty(CompileCache.PROPERTY, cache.toString());
    System.out.println(
        "| path | cpu s | xla:cpu s | cpu tokens/s | xla tokens/s | xla bytes moved per step |");
    System.out.println("| --- | --- | --- | --- | --- | --- |");
    row(
        "train step (B x T)",
        b * t,
        time("cpu", weights, z, true),
        time("xla:cpu", weights, z, true));
    row(
        "decode step (B rows)",
        b,
        time("cpu", weights, z, false),
        time("xla:cpu", weights, z, false));
    try (var files = Files.walk(cache)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }

  /** A timing and, on xla, the traffic of one step. */
  private record Timing(double seconds, Optional<Transfers> moved) {}

  private static void row(String path, int tokens, Timing cpu, Timing xla) {
    System.out.printf(
        "| %s | %.4f | %.4f | %.0f | %.0f | %s |%n",
        path,
        cpu.seconds(),
        xla.seconds(),
        tokens / cpu.seconds(),
        tokens / xla.seconds(),
        xla.moved()
            .map(m -> m.uploadedBytes() + " up, " + m.downloadedBytes() + " down")
            .orElse(""));
  }

  private static Timing time(String spec, ModelCheckpoint weights, Sizes z, boolean train) {
    try (Device d = Devices.open(spec);
        PolicyModel model = PolicyModel.of(d, weights)) {
      Supplier<Transfers> traffic =
          () -> d instanceof XlaDevice x ? x.transfers() : new Transfers(0, 0, 0, 0);
      double[] times;
      Transfers moved;
      if (train) {
        try (PolicyOptimizer trainer = trainer(model)) {
          List<TokenBatch> batch = List.of(tokens(model.config(), z.rows(), z.length(), 7));
          trainer.step(batch, 1f, XlaTestFixtures::meanNll); // compile + warm up
          times = new double[z.repeats()];
          Transfers before = traffic.get();
          for (int r = 0; r < times.length; r++) {
            long start = System.nanoTime();
            trainer.step(batch, 1f, XlaTestFixtures::meanNll);
            times[r] = (System.nanoTime() - start) / 1e9;
          }
          moved = perStep(traffic.get().since(before), times.length);
        }
      } else {
        try (SlotDecoder dec =
            SlotDecoder.open(model, z.rows(), z.prompt() + z.decodeSteps() + 1)) {
          int[] pos = prefill(dec, model.config(), z);
          step(dec, pos); // compile + warm up
          times = new double[z.decodeSteps() - 1];
          Transfers before = traffic.get();
          for (int r = 0; r < times.length; r++) {
            long start = System.nanoTime();
            step(dec, pos);
            times[r] = (System.nanoTime() - start) / 1e9;
          }
          moved = perStep(traffic.get().since(before), times.length);
        }
      }
      Arrays.sort(times);
      return new Timing(
          times[times.length / 2], d instanceof XlaDevice ? Optional.of(moved) : Optional.empty());
    }
  }

  private static Transfers perStep(Transfers total, int steps) {
    return new Transfers(
        total.uploads() / steps,
        total.uploadedBytes() / steps,
        total.downloads() / steps,
        total.downloadedBytes() / steps);
  }

  /** Opens xla:cpu on {@code cache}, runs one train step and one decode step; seconds taken. */
  private static double startTime(ModelCheckpoint weights, Sizes z, Path cache) {
    PluginDiscovery.Result found = PluginDiscovery.fromProcess().find("xla:cpu");
    PjrtPlugin plugin = PjrtPlugin.load(found.plugin().orElseThrow());
    long start = System.nanoTime();
    try (XlaDevice d = XlaDevice.open("xla:cpu", plugin, Optional.of(cache));
        PolicyModel model = PolicyModel.of(d, weights);
        PolicyOptimizer trainer = trainer(model);
        SlotDecoder dec = SlotDecoder.open(model, z.rows(), z.prompt() + z.decodeSteps() + 1)) {
      trainer.step(
          List.of(tokens(model.config(), z.rows(), z.length(), 7)), 1f, XlaTestFixtures::meanNll);
      step(dec, prefill(dec, model.config(), z));
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private static PolicyOptimizer trainer(PolicyModel model) {
    return new PolicyOptimizer(model, AdamWConfig.defaults(), new LrSchedule.Constant(1e-4));
  }

  private static int[] prefill(SlotDecoder dec, ModelConfig c, Sizes z) {
    TokenBatch prompts = tokens(c, z.rows(), z.prompt(), 11);
    List<int[]> rows = new ArrayList<>();
    int[] ids = prompts.ids().data();
    for (int r = 0; r < z.rows(); r++) {
      rows.add(Arrays.copyOfRange(ids, r * z.prompt(), (r + 1) * z.prompt()));
    }
    dec.prefill(rows);
    int[] pos = new int[z.rows()];
    Arrays.fill(pos, z.prompt());
    return pos;
  }

  /** One decode step for every row (token 1: the timing does not depend on the token). */
  private static void step(SlotDecoder dec, int[] pos) {
    int n = pos.length;
    int[] tokens = new int[n];
    Arrays.fill(tokens, 1);
    boolean[] active = new boolean[n];
    Arrays.fill(active, true);
    dec.step(tokens, pos, active);
    for (int r = 0; r < n; r++) {
      pos[r]++;
    }
  }

  private static TokenBatch tokens(ModelConfig c, int b, int t, long seed) {
    Random rnd = new Random(seed);
    List<int[]> rows = new ArrayList<>();
    for (int r = 0; r < b; r++) {
      int[] row = new int[t];
      for (int j = 0; j < t; j++) {
        row[j] = rnd.nextInt(c.vocabSize());
      }
      rows.add(row);
    }
    return TokenBatch.rightPadded(rows, t);
  }

  private static Handler capture(List<String> into) {
    return new Handler() {
      @Override
      public void publish(LogRecord r) {
        String m = r.getMessage();
        if (m != null && (m.startsWith("compiled ") || m.startsWith("loaded "))) {
          into.add(m.replace(" on xla:cpu", "").replace(" from cache", ""));
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
  }
}
