package dev.javelin.backend.bench;

import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.TokenBatch;
import dev.javelin.backend.batch.TokenStats;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.cpu.CpuDevice;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.TokenLoss;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.LrSchedule;
import dev.javelin.backend.runtime.GreedyDecode;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.backend.runtime.PolicyOptimizer;
import dev.javelin.backend.spmd.Mesh;
import dev.javelin.backend.xla.XlaDevice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * The Java side of bench/model-bench.sh: train-step and batched-decode throughput of the decoder on
 * a device, printed as one JSON line per measurement (the same fields as tools/torch_bench.py).
 *
 * <p>Usage: {@code ModelBenchmark --device cpu --config tiny|small|smollm2 --task train|decode
 * [--dtype f32|bf16 --batch 64 --seq 128 --prompt 16 --new 64 --iters 3 --lora r]}; the train step
 * keeps what {@code -Djavelin.remat} says (elementwise, blocks) for the backward pass. {@code
 * --dtype bf16} makes the train step mixed precision and decoding bf16 (bf16 KV cache). Without
 * {@code --lora} the train step is the fused one; {@code --lora r} times the trainer's own step
 * instead (the VJP split with a host loss, {@link LoraTrainStep}) with rank-r adapters on every
 * linear layer, or full fine-tuning at {@code --lora 0}, and reports what it holds. {@code --mesh
 * fsdp=4} (or {@code tp=2}, {@code fsdp=2,tp=2}, ...) runs the model over the first devices of an
 * {@code xla:*} device ({@code -Djavelin.xla.cpu.devices=N} gives xla:cpu N devices).
 */
public final class ModelBenchmark {
  private ModelBenchmark() {}

  public static void main(String[] argv) {
    BenchArgs a = BenchArgs.parse(argv);
    ModelConfig c =
        config(a.config()).withMaxPositions(Math.max(a.seq(), a.prompt() + a.newTokens()) + 16);
    try (Device device = Devices.open(a.device());
        PolicyModel model =
            PolicyModel.of(
                device, ModelCheckpoint.random(c, 0, 0.02), a.dtype(), mesh(a, device))) {
      String line;
      if (a.task().equals("train")) {
        line = a.lora() >= 0 ? LoraTrainStep.run(a, model) : train(a, model);
      } else {
        line = decode(a, model);
      }
      System.out.println(line);
    }
  }

  /** The mesh of {@code --mesh} over the device's first chips; null without the option. */
  private static Mesh mesh(BenchArgs a, Device device) {
    if (a.mesh().isEmpty()) {
      return null;
    }
    Mesh iota = Mesh.parse(a.mesh());
    if (!(device instanceof XlaDevice x) || x.deviceIds().size() < iota.size()) {
      throw new IllegalArgumentException(
          "--mesh " + a.mesh() + " needs an xla:* device with " + iota.size() + " chips");
    }
    return new Mesh(iota.axes(), x.deviceIds().subList(0, iota.size()));
  }

  /**
   * The benchmark models, random weights: tiny and small, and SmolLM2-135M-Instruct's architecture
   * (Llama layout: no q/k/v biases, RoPE θ 100k, 9 query / 3 KV heads, tied 49,152-token head), the
   * size of a real checkpoint; tools/torch_bench.py builds the same three.
   */
  private static ModelConfig config(String name) {
    return switch (name) {
      case "small" -> ModelConfig.small();
      case "smollm2" ->
          new ModelConfig(
              49_152, 576, 1536, 30, 9, 3, 64, 100_000, 1e-5, true, false, 8192, LlamaFamily.LLAMA);
      default -> ModelConfig.tiny();
    };
  }

  private static String train(BenchArgs a, PolicyModel model) {
    ModelConfig c = model.config();
    Random rng = new Random(1);
    List<int[]> rows = new ArrayList<>();
    for (int r = 0; r < a.batch(); r++) {
      rows.add(rng.ints(a.seq(), 1, c.vocabSize()).toArray());
    }
    TokenBatch batch = TokenBatch.rightPadded(rows, a.seq());
    int tb = model.bucket(a.seq());
    float[] mask = new float[a.batch() * (tb - 1)];
    for (int r = 0; r < a.batch(); r++) {
      Arrays.fill(mask, r * (tb - 1), r * (tb - 1) + a.seq() - 1, 1f);
    }
    Map<String, Tensor> lossIn =
        Map.of(
            "response_mask",
            new Tensor.F32(Shape.of(a.batch(), tb - 1), mask),
            "inv_count",
            Tensor.scalar(1f / (a.batch() * (a.seq() - 1))));
    double[] times = new double[a.iters()];
    long gemmNs = 0;
    long allNs = 0;
    try (PolicyOptimizer trainer =
        new PolicyOptimizer(model, AdamWConfig.defaults(), new LrSchedule.Constant(1e-5))) {
      trainer.stepFused(batch, 1f, MEAN_NLL, lossIn); // compile + warm up
      // -Djavelin.bench.profile=false times the steps with kernel profiling off (bench/headline.sh)
      boolean profile = Boolean.parseBoolean(System.getProperty("javelin.bench.profile", "true"));
      CpuDevice cpu = profile && model.device() instanceof CpuDevice d ? d : null;
      if (cpu != null) {
        cpu.resetProfile();
        cpu.setProfiling(true);
      }
      for (int i = 0; i < a.iters(); i++) {
        long t0 = System.nanoTime();
        trainer.stepFused(batch, 1f, MEAN_NLL, lossIn);
        times[i] = (System.nanoTime() - t0) / 1e9;
      }
      if (cpu != null) {
        cpu.setProfiling(false);
        for (var e : cpu.profile().entrySet()) {
          allNs += e.getValue();
          if (e.getKey().contains("Gemm")) {
            gemmNs += e.getValue();
          }
        }
      }
    }
    double median = median(times);
    double flops = trainFlops(c, a.batch(), tb) * a.iters();
    return String.format(
        Locale.ROOT,
        "{\"engine\":\"javelin-%s\",\"config\":\"%s\",\"task\":\"train\",\"dtype\":\"%s\","
            + "\"mesh\":\"%s\",\"batch\":%d,\"remat\":\"%s\",\"tokens_per_s\":%.1f,\"times_s\":%s,\"matmul_share\":%.3f,\"matmul_gflops\":%.1f}",
        a.device(),
        a.config(),
        a.dtype().mlirName(),
        a.mesh(),
        a.batch(),
        PolicyOptimizer.defaultRemat(),
        a.batch() * a.seq() / median,
        Arrays.toString(times),
        allNs == 0 ? Double.NaN : (double) gemmNs / allNs,
        gemmNs == 0 ? Double.NaN : flops / gemmNs);
  }

  /**
   * One more generation, untimed, with kernel profiling on (unless -Djavelin.bench.profile=false):
   * where a decode step's time goes, per kernel kind, on stderr.
   */
  private static void profileDecode(List<int[]> prompts, BenchArgs a, PolicyModel model) {
    boolean profile = Boolean.parseBoolean(System.getProperty("javelin.bench.profile", "true"));
    if (!profile || !(model.device() instanceof CpuDevice cpu)) {
      return;
    }
    cpu.resetProfile();
    cpu.setProfiling(true);
    long t0 = System.nanoTime();
    GreedyDecode.generate(model, prompts, a.newTokens(), -1, a.dtype());
    long wall = System.nanoTime() - t0;
    cpu.setProfiling(false);
    long kernels = cpu.profile().values().stream().mapToLong(Long::longValue).sum();
    System.err.printf(
        Locale.ROOT,
        "decode profile: %.1f ms wall, %.1f ms in kernels, %.2f ms per step%n",
        wall / 1e6,
        kernels / 1e6,
        wall / 1e6 / a.newTokens());
    cpu.profile().entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(12)
        .forEach(
            e ->
                System.err.printf(
                    Locale.ROOT, "  %-60s %8.2f ms%n", e.getKey(), e.getValue() / 1e6));
  }

  private static String decode(BenchArgs a, PolicyModel model) {
    Random rng = new Random(2);
    List<int[]> prompts = new ArrayList<>();
    for (int r = 0; r < a.batch(); r++) {
      prompts.add(rng.ints(a.prompt(), 1, model.config().vocabSize()).toArray());
    }
    GreedyDecode.generate(model, prompts, a.newTokens(), -1, a.dtype()); // compile + warm up
    HeapSampler heap = HeapSampler.start();
    double[] times = new double[a.iters()];
    for (int i = 0; i < a.iters(); i++) {
      long t0 = System.nanoTime();
      List<int[]> out = GreedyDecode.generate(model, prompts, a.newTokens(), -1, a.dtype());
      times[i] = (System.nanoTime() - t0) / 1e9;
      if (out.get(0).length != a.newTokens()) {
        throw new IllegalStateException("generated " + out.get(0).length + " tokens");
      }
    }
    HeapSampler.Stats h = heap.stop();
    profileDecode(prompts, a, model);
    return String.format(
        Locale.ROOT,
        "{\"engine\":\"javelin-%s\",\"config\":\"%s\",\"task\":\"decode\",\"dtype\":\"%s\","
            + "\"mesh\":\"%s\",\"batch\":%d,"
            + "\"tokens_per_s\":%.1f,\"times_s\":%s,\"heap_start_mb\":%d,\"heap_peak_mb\":%d,"
            + "\"heap_end_mb\":%d}",
        a.device(),
        a.config(),
        a.dtype().mlirName(),
        a.mesh(),
        a.batch(),
        a.batch() * a.newTokens() / median(times),
        Arrays.toString(times),
        h.startMb(),
        h.peakMb(),
        h.endMb());
  }

  /**
   * Matrix-product FLOPs of one train step: 3 × forward (backward is two products per forward one).
   * Forward per token: 2 × (projection + MLP weights) + 2·D·V for the head + 4·T·H·Dh for scores
   * and context over all T keys.
   */
  static double trainFlops(ModelConfig c, int b, int t) {
    double proj =
        (double) c.hidden() * c.headDim() * (2 * c.heads() + 2 * c.kvHeads())
            + 3.0 * c.hidden() * c.intermediate();
    double perToken =
        2 * proj * c.layers()
            + 2.0 * c.hidden() * c.vocabSize()
            + 4.0 * t * c.heads() * c.headDim() * c.layers();
    return 3 * perToken * b * t;
  }

  static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  /** Mean negative log-likelihood of the masked tokens: {@code -Σ mask·logp · inv_count}. */
  static final TokenLoss MEAN_NLL =
      new TokenLoss() {
        @Override
        public String name() {
          return "mean_nll";
        }

        @Override
        public Node build(GraphBuilder g, TokenStats st) {
          Node mask = g.parameter("response_mask", DType.F32, st.logp().shape());
          Node inv = g.parameter("inv_count", DType.F32, Shape.scalar());
          return g.neg(g.mul(g.reduceSum(g.mul(mask, st.logp()), 0, 1), inv));
        }
      };
}
