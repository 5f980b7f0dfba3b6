package dev.javelin.trainer;

import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.LrSchedule;
import dev.javelin.grpo.ActorLossConfig;
import dev.javelin.grpo.KlEstimator;
import dev.javelin.grpo.PolicyLossConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** A micro model and random GRPO-shaped batches for trainer tests. */
public final class Fixtures {
  public static final int VOCAB = 24;

  private Fixtures() {}

  /** ~20k parameters, Llama-style (no qkv bias, untied head). */
  public static ModelConfig microConfig() {
    return new ModelConfig(
        VOCAB, 32, 64, 2, 4, 2, 8, 10_000, 1e-6, false, false, 64, LlamaFamily.LLAMA);
  }

  public static ModelCheckpoint microCheckpoint(long seed) {
    return ModelCheckpoint.random(microConfig(), seed, 0.1);
  }

  /** Constant LR, VeRL's AdamW defaults, GRPO's PPO-clip token-mean loss. */
  public static TrainerConfig config(int mini, int micro) {
    return TrainerConfig.of(
        mini,
        micro,
        1.0,
        AdamWConfig.defaults(),
        new LrSchedule.Constant(1e-3),
        ActorLossConfig.of(PolicyLossConfig.defaults()));
  }

  /**
   * The exact-resume tests' trainer: the KL config with 2 epochs of mini-batches 8 and micro 4,
   * logprob chunks of 8, grad clip 0.9, the given schedule and sampling seed.
   */
  public static TrainerConfig resumeConfig(LrSchedule schedule, long seed) {
    TrainerConfig c = klConfig(8, 4);
    return TrainerConfig.builder(8, 4, c.optimizer(), schedule, c.loss())
        .epochs(2, true)
        .logProbMicroBatchSize(8)
        .temperature(0.9)
        .useReference(true)
        .seed(seed)
        .build();
  }

  /** {@link #config} with a K3 KL loss (coefficient 0.1) against the reference policy. */
  public static TrainerConfig klConfig(int mini, int micro) {
    TrainerConfig c = config(mini, micro);
    return c.toBuilder().loss(c.loss().withKlLoss(KlEstimator.K3, 0.1)).useReference(true).build();
  }

  /**
   * {@code prompts} groups of {@code n} responses with varied prompt and response lengths, rollout
   * log-probs near the uniform policy's, and group-relative ±1 advantages.
   */
  public static List<TrainSample> batch(long seed, int prompts, int n) {
    SplittableRandom rng = new SplittableRandom(seed);
    List<TrainSample> out = new ArrayList<>();
    for (int p = 0; p < prompts; p++) {
      int[] prompt = tokens(rng, 2 + rng.nextInt(6));
      for (int i = 0; i < n; i++) {
        int[] response = tokens(rng, 1 + rng.nextInt(7));
        float[] rollout = new float[response.length];
        for (int k = 0; k < rollout.length; k++) {
          rollout[k] = (float) (-Math.log(VOCAB) + 0.1 * rng.nextGaussian());
        }
        double score = rng.nextBoolean() ? 1 : 0;
        out.add(
            TrainSample.of("p" + seed + "-" + p, prompt, response, rollout, score, 2 * score - 1));
      }
    }
    return out;
  }

  private static int[] tokens(SplittableRandom rng, int len) {
    int[] t = new int[len];
    for (int i = 0; i < len; i++) {
      t[i] = rng.nextInt(VOCAB);
    }
    return t;
  }

  /**
   * VeRL's order through the {@link Trainer} interface: old and reference log-probs, then the
   * update (the configs of the gang tests all use a reference model).
   */
  public static Map<String, Double> grpoStep(Trainer t, List<TrainSample> batch) {
    float[][] old = t.logProbs(batch, PolicyRole.ACTOR);
    float[][] ref = t.logProbs(batch, PolicyRole.REFERENCE);
    List<TrainSample> ready = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      ready.add(batch.get(i).withOldLogProbs(old[i]).withRefLogProbs(ref[i]));
    }
    return t.update(ready).metrics();
  }
}
