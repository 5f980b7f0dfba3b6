package dev.javelin.tests.bench;

import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.model.LoraAdapters;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.runtime.GreedyDecode;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.sampler.SamplerConfig;
import dev.javelin.sampler.SamplerEngine;
import dev.javelin.trainer.engine.PolicySnapshots;
import dev.javelin.weightsync.SnapshotCodec;
import dev.javelin.weightsync.SnapshotContent;
import dev.javelin.weightsync.WeightSnapshot;
import dev.javelin.weightsync.WireType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Weight sync under LoRA on the small config (51M), trainer and one sampler in this JVM on the
 * {@code cpu} device: bytes, time and the sampler's decode tok/s afterwards, for the three ways a
 * LoRA policy can reach a sampler: {@code merged} (the trainer folds the adapters in and sends the
 * whole model), {@code adapters} (A and scale·B travel, the sampler merges them into its base) and
 * {@code unmerged} (A and scale·B travel, the sampler runs the adapters in its programs). A sync is
 * the trainer's snapshot, its byte form, decoding and the sampler's load. One JSON line per mode.
 * {@code merged} and {@code adapters} leave the sampler the same plain weights (bit for bit,
 * LoraSyncTest), so decode is timed for {@code adapters} and {@code unmerged} only.
 *
 * <p>Usage: {@code LoraSyncBench [rank 16] [iters 5] [decode batch 64] [new tokens 64]}.
 */
public final class LoraSyncBench {
  private LoraSyncBench() {}

  public static void main(String[] argv) {
    int rank = argv.length > 0 ? Integer.parseInt(argv[0]) : 16;
    int iters = argv.length > 1 ? Integer.parseInt(argv[1]) : 5;
    int batch = argv.length > 2 ? Integer.parseInt(argv[2]) : 64;
    int newTokens = argv.length > 3 ? Integer.parseInt(argv[3]) : 64;
    ModelConfig c = ModelConfig.small().withMaxPositions(16 + newTokens + 16);
    LoraConfig lora = new LoraConfig(rank, 2.0 * rank, Set.copyOf(LoraConfig.MODULES));
    Map<String, Tensor.F32> ad = LoraAdapters.init(lora, c, 1);
    Random rnd = new Random(2);
    for (LoraConfig.Adapter a : lora.adapters(c)) {
      float[] b = ad.get(a.b()).data();
      for (int i = 0; i < b.length; i++) {
        b[i] = (float) (rnd.nextGaussian() * 0.01); // a trained B: not zero, so merging does work
      }
    }
    Random prompts = new Random(3);
    List<int[]> rows = new ArrayList<>();
    for (int r = 0; r < batch; r++) {
      rows.add(prompts.ints(16, 1, c.vocabSize()).toArray());
    }
    try (Device device = Devices.open("cpu");
        PolicyModel trainer = PolicyModel.of(device, ModelCheckpoint.random(c, 0, 0.02))) {
      trainer.attachAdapters(lora, ad);
      for (String mode : List.of("merged", "adapters", "unmerged")) {
        System.out.println(run(mode, trainer, device, rows, iters, newTokens));
      }
    }
  }

  private static String run(
      String mode, PolicyModel trainer, Device device, List<int[]> rows, int iters, int newTokens) {
    ModelConfig c = trainer.config();
    SnapshotContent each =
        mode.equals("merged") ? SnapshotContent.WEIGHTS : SnapshotContent.ADAPTERS;
    SnapshotContent first =
        mode.equals("merged") ? SnapshotContent.WEIGHTS : SnapshotContent.BASE_AND_ADAPTERS;
    double[] trainerMs = new double[iters];
    double[] samplerMs = new double[iters];
    long bytes = 0;
    long firstBytes;
    try (SamplerEngine sampler =
        new SamplerEngine(
            PolicyModel.of(device, ModelCheckpoint.random(c, 9, 0.0)),
            SamplerConfig.defaults(),
            -1)) {
      firstBytes = sync(mode, trainer, sampler, 0, first, new double[2]);
      for (int i = 0; i < iters; i++) {
        double[] ms = new double[2];
        bytes = sync(mode, trainer, sampler, i + 1, each, ms);
        trainerMs[i] = ms[0];
        samplerMs[i] = ms[1];
      }
      PolicyModel m = sampler.model();
      double[] decode = new double[mode.equals("merged") ? 0 : iters];
      if (decode.length > 0) {
        GreedyDecode.generate(m, rows, newTokens, -1); // compile + warm up
      }
      for (int i = 0; i < decode.length; i++) {
        long t0 = System.nanoTime();
        GreedyDecode.generate(m, rows, newTokens, -1);
        decode[i] = (System.nanoTime() - t0) / 1e9;
      }
      return String.format(
          Locale.ROOT,
          "{\"mode\":\"%s\",\"rank\":%d,\"first_sync_bytes\":%d,\"sync_bytes\":%d,"
              + "\"trainer_ms\":%.1f,\"sampler_ms\":%.1f,\"sync_ms\":%.1f,\"sync_ms_all\":%s,"
              + "\"decode_tokens_per_s\":%.1f,\"decode_s\":%s}",
          mode,
          trainer.lora().rank(),
          firstBytes,
          bytes,
          median(trainerMs),
          median(samplerMs),
          median(sum(trainerMs, samplerMs)),
          Arrays.toString(round(sum(trainerMs, samplerMs))),
          decode.length == 0 ? Double.NaN : rows.size() * newTokens / median(decode),
          Arrays.toString(decode));
    }
  }

  /** One sync of {@code content}; ms[0] = trainer side, ms[1] = sampler side. Returns bytes. */
  private static long sync(
      String mode,
      PolicyModel trainer,
      SamplerEngine sampler,
      long version,
      SnapshotContent content,
      double[] ms) {
    long t0 = System.nanoTime();
    WeightSnapshot built = PolicySnapshots.of(trainer, version, WireType.F32, content);
    byte[] wire = SnapshotCodec.toArray(built);
    long t1 = System.nanoTime();
    WeightSnapshot got = SnapshotCodec.decode(ByteBuffer.wrap(wire));
    if (mode.equals("unmerged")) {
      loadUnmerged(got, sampler.model());
    } else {
      sampler.loadWeights(got);
    }
    long t2 = System.nanoTime();
    ms[0] = (t1 - t0) / 1e6;
    ms[1] = (t2 - t1) / 1e6;
    return built.byteSize();
  }

  /** The unmerged form: the base when the snapshot brings it, then the adapters attached. */
  private static void loadUnmerged(WeightSnapshot s, PolicyModel model) {
    ModelConfig c = model.config();
    Map<String, int[]> shapes = new LinkedHashMap<>();
    s.entries().forEach(e -> shapes.put(e.name(), e.shape()));
    LoraConfig lora = LoraConfig.ofScaled(c, shapes);
    if (shapes.containsKey(WeightSpec.layout(c).get(0).name())) {
      Map<String, Tensor.F32> base = new LinkedHashMap<>();
      for (WeightSpec spec : WeightSpec.layout(c)) {
        base.put(spec.name(), new Tensor.F32(spec.shape(), s.floats(spec.name())));
      }
      model.loadWeights(base);
    }
    Map<String, Tensor.F32> ad = new LinkedHashMap<>();
    for (LoraConfig.Adapter a : lora.adapters(c)) {
      ad.put(a.a(), new Tensor.F32(Shape.of(a.rank(), a.in()), s.floats(a.a())));
      ad.put(a.b(), new Tensor.F32(Shape.of(a.out(), a.rank()), s.floats(a.b())));
    }
    model.attachAdapters(lora, ad);
  }

  private static double[] sum(double[] a, double[] b) {
    double[] out = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      out[i] = a[i] + b[i];
    }
    return out;
  }

  private static double[] round(double[] xs) {
    double[] out = new double[xs.length];
    for (int i = 0; i < xs.length; i++) {
      out[i] = Math.round(xs[i] * 10) / 10.0;
    }
    return out;
  }

  private static double median(double[] xs) {
    if (xs.length == 0) {
      return Double.NaN;
    }
    double[] s = xs.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
