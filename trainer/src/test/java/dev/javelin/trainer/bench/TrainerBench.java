package dev.javelin.trainer.bench;

import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.LrSchedule;
import dev.javelin.grpo.ActorLossConfig;
import dev.javelin.grpo.PolicyLossConfig;
import dev.javelin.trainer.PolicyRole;
import dev.javelin.trainer.SftExample;
import dev.javelin.trainer.TrainSample;
import dev.javelin.trainer.TrainerConfig;
import dev.javelin.trainer.engine.PpoUpdater;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Trainer time per GRPO step on the arith-grpo shape: a Llama-style d = 128 model over the char
 * vocabulary (89 ids), 32 prompts × 8 responses, prompts "a+b=" (≤ 9 tokens with BOS), responses ≤
 * 5 tokens; one mini-batch per step, PPO-clip 0.2, token-mean. Times old log-probs and the update
 * separately, plus one SFT step of the same batch.
 *
 * <p>Usage: {@code TrainerBench [steps] [microBatch] [skipOld]}; see trainer/bench.sh. With {@code
 * skipOld = true} the update runs on-policy without the old-log-prob pass.
 */
public final class TrainerBench {
  static final int VOCAB = 89;

  private TrainerBench() {}

  public static void main(String[] args) {
    int steps = args.length > 0 ? Integer.parseInt(args[0]) : 30;
    int micro = args.length > 1 ? Integer.parseInt(args[1]) : 256;
    boolean skipOld = args.length > 2 && Boolean.parseBoolean(args[2]);
    ModelConfig c =
        new ModelConfig(
            VOCAB, 128, 384, 4, 4, 4, 32, 10_000, 1e-6, true, false, 32, LlamaFamily.LLAMA);
    ModelCheckpoint init = ModelCheckpoint.random(c, 1, 0.02);
    TrainerConfig cfg =
        TrainerConfig.of(
            256,
            micro,
            1.0,
            AdamWConfig.defaults(),
            new LrSchedule.Constant(1e-4),
            ActorLossConfig.of(PolicyLossConfig.defaults()));
    int warm = 5;
    double[] old = new double[steps];
    double[] upd = new double[steps];
    double[] sft = new double[steps];
    try (Device d = Devices.open("cpu");
        PpoUpdater t = new PpoUpdater(d, init, cfg)) {
      for (int i = -warm; i < steps; i++) {
        List<TrainSample> batch = batch(i + 1000);
        long t0 = System.nanoTime();
        List<TrainSample> ready = batch;
        if (!skipOld) {
          float[][] lp = t.logProbs(batch, PolicyRole.ACTOR);
          ready = new ArrayList<>();
          for (int k = 0; k < batch.size(); k++) {
            ready.add(batch.get(k).withOldLogProbs(lp[k]));
          }
        }
        long t1 = System.nanoTime();
        t.update(ready);
        long t2 = System.nanoTime();
        List<SftExample> ex = new ArrayList<>();
        for (TrainSample s : batch) {
          ex.add(new SftExample(s.promptIds(), s.responseIds()));
        }
        t.sftStep(ex);
        long t3 = System.nanoTime();
        if (i >= 0) {
          old[i] = (t1 - t0) / 1e6;
          upd[i] = (t2 - t1) / 1e6;
          sft[i] = (t3 - t2) / 1e6;
        }
      }
    }
    System.out.printf(
        Locale.ROOT,
        "arith shape: %,d params, 256 samples, micro-batch %d, skipOld %b, %d steps (after %d"
            + " warm-up)%n",
        c.parameterCount(),
        micro,
        skipOld,
        steps,
        warm);
    report("old_log_prob", old);
    report("update_actor", upd);
    report("sft_step", sft);
  }

  private static void report(String name, double[] ms) {
    double[] s = ms.clone();
    Arrays.sort(s);
    System.out.printf(
        Locale.ROOT, "%-14s median %8.1f ms   min %8.1f ms%n", name, s[s.length / 2], s[0]);
  }

  /** 32 prompts × 8 responses shaped like arith-grpo's. */
  static List<TrainSample> batch(long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    List<TrainSample> out = new ArrayList<>();
    for (int p = 0; p < 32; p++) {
      int[] prompt = new int[1 + rng.nextInt(3, 9)];
      prompt[0] = 1; // BOS
      for (int k = 1; k < prompt.length; k++) {
        prompt[k] = 5 + rng.nextInt(10);
      }
      for (int n = 0; n < 8; n++) {
        int[] response = new int[rng.nextInt(2, 6)];
        for (int k = 0; k < response.length; k++) {
          response[k] = k == response.length - 1 ? 2 : 5 + rng.nextInt(10);
        }
        float[] rollout = new float[response.length];
        Arrays.fill(rollout, -1f);
        double score = rng.nextBoolean() ? 1 : 0;
        out.add(TrainSample.of("p" + p, prompt, response, rollout, score, score - 0.5));
      }
    }
    return out;
  }
}
