package dev.javelin.backend.bench;

import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Shape;
import dev.javelin.backend.batch.TokenBatch;
import dev.javelin.backend.batch.TokenLogProbs;
import dev.javelin.backend.model.LoraAdapters;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.LrSchedule;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.backend.runtime.PolicyOptimizer;
import dev.javelin.backend.testing.MeanNll;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

/**
 * {@code ModelBenchmark --task train --lora r}: the trainer's step (log-probs, a host NLL loss, its
 * cotangents, gradients and AdamW) with rank-r adapters on every linear layer (alpha 2r), or every
 * weight trained at r = 0. Reports step time and memory: weights, trainable parameters, AdamW
 * moments (exact, from the buffers) and the heap during the steps (peak used, and the largest live
 * heap measured right after a collection).
 */
final class LoraTrainStep {
  private LoraTrainStep() {}

  static String run(BenchArgs a, PolicyModel model) {
    int r = a.lora();
    if (r > 0) {
      LoraConfig lora = new LoraConfig(r, 2.0 * r, Set.copyOf(LoraConfig.MODULES));
      model.attachAdapters(lora, LoraAdapters.init(lora, model.config(), 1));
    }
    Random rng = new Random(1);
    List<int[]> rows = new ArrayList<>();
    for (int i = 0; i < a.batch(); i++) {
      rows.add(rng.ints(a.seq(), 1, model.config().vocabSize()).toArray());
    }
    TokenBatch batch = TokenBatch.rightPadded(rows, a.seq());
    double[] times = new double[a.iters()];
    HeapSampler.Stats heap;
    long moments;
    try (PolicyOptimizer opt =
        new PolicyOptimizer(model, AdamWConfig.defaults(), new LrSchedule.Constant(1e-5))) {
      moments = bytes(opt.momentsOnDevice().values());
      PolicyOptimizer.HostLoss nll =
          new PolicyOptimizer.HostLoss() {
            @Override
            public PolicyOptimizer.Cotangents apply(int microBatch, TokenLogProbs stats) {
              return MeanNll.of(stats);
            }

            @Override
            public boolean usesEntropy() {
              return false;
            }
          };
      opt.step(List.of(batch), 1f, nll); // compile + warm up
      HeapSampler sampler = HeapSampler.start();
      for (int i = 0; i < a.iters(); i++) {
        long t0 = System.nanoTime();
        opt.step(List.of(batch), 1f, nll);
        times[i] = (System.nanoTime() - t0) / 1e9;
      }
      heap = sampler.stop();
    }
    long trainable = 0;
    for (Shape s : model.trainableShapes().values()) {
      trainable += s.size();
    }
    return String.format(
        Locale.ROOT,
        "{\"engine\":\"javelin-%s\",\"config\":\"%s\",\"task\":\"train_step\",\"lora\":%d,"
            + "\"batch\":%d,\"seq\":%d,\"remat\":\"%s\",\"step_s\":%.3f,\"tokens_per_s\":%.1f,"
            + "\"times_s\":%s,\"trainable_params\":%d,\"weights_mb\":%.1f,\"adamw_mb\":%.1f,"
            + "\"heap_start_mb\":%d,\"heap_peak_mb\":%d,\"heap_live_peak_mb\":%d}",
        a.device(),
        a.config(),
        r,
        a.batch(),
        a.seq(),
        PolicyOptimizer.defaultRemat(),
        ModelBenchmark.median(times),
        a.batch() * a.seq() / ModelBenchmark.median(times),
        Arrays.toString(times),
        trainable,
        bytes(model.weightsOnDevice().values()) / 1e6,
        moments / 1e6,
        heap.startMb(),
        heap.peakMb(),
        heap.livePeakMb());
  }

  private static long bytes(Collection<DeviceBuffer> buffers) {
    long n = 0;
    for (DeviceBuffer b : buffers) {
      n += 4L * b.shape().size();
    }
    return n;
  }
}
