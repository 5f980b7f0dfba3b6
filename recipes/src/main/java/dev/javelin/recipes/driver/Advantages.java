package dev.javelin.recipes.driver;

import dev.javelin.grpo.AdvantageInput;
import dev.javelin.grpo.AdvantageResult;
import dev.javelin.grpo.AlgorithmConfig;
import dev.javelin.sampler.Rollout;
import dev.javelin.trainer.TrainSample;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The driver's advantage stage: pads the step's responses to (B, T), places each outcome score on
 * its last token (VeRL's reward managers), runs the recipe's estimator (GRPO: Â_i = (s_i − μ_g) /
 * (σ_g + ε) within each prompt's group g) and cuts each row back to its response length.
 */
public final class Advantages {
  private Advantages() {}

  /** What the stage produced: training samples and the advantages' statistics. */
  public record Result(List<TrainSample> samples, double mean, double max, double min) {}

  /** Builds the trainer's samples for {@code rollouts} scored {@code scores}. */
  public static Result compute(List<Rollout> rollouts, double[] scores, AlgorithmConfig config) {
    return compute(rollouts, scores, config, in -> in);
  }

  /**
   * As {@link #compute(List, double[], AlgorithmConfig)}, with {@code shaping} applied to the (B,
   * T) token rewards before the estimator (the in-reward KL penalty).
   */
  public static Result compute(
      List<Rollout> rollouts,
      double[] scores,
      AlgorithmConfig config,
      UnaryOperator<AdvantageInput> shaping) {
    int rows = rollouts.size();
    int cols = 1;
    for (Rollout r : rollouts) {
      cols = Math.max(cols, r.responseLength());
    }
    boolean[] mask = new boolean[rows * cols]; // (B, T)
    String[] uids = new String[rows]; // (B,)
    for (int r = 0; r < rows; r++) {
      Arrays.fill(mask, r * cols, r * cols + rollouts.get(r).responseLength(), true);
      uids[r] = rollouts.get(r).promptUid();
    }
    AdvantageInput input = shaping.apply(AdvantageInput.fromScores(rows, cols, scores, mask, uids));
    AdvantageResult result = config.advEstimator().compute(input, config);
    double[] adv = result.advantages(); // (B, T)
    List<TrainSample> samples = new ArrayList<>(rows);
    double sum = 0;
    double max = Double.NEGATIVE_INFINITY;
    double min = Double.POSITIVE_INFINITY;
    long count = 0;
    for (int r = 0; r < rows; r++) {
      Rollout ro = rollouts.get(r);
      int len = ro.responseLength();
      double[] a = Arrays.copyOfRange(adv, r * cols, r * cols + len); // (R)
      for (double v : a) {
        sum += v;
        max = Math.max(max, v);
        min = Math.min(min, v);
      }
      count += len;
      samples.add(
          new TrainSample(
              ro.promptUid(),
              ro.promptIds(),
              ro.responseIds(),
              ro.logProbs(),
              scores[r],
              a,
              null,
              null));
    }
    return new Result(samples, count == 0 ? 0 : sum / count, max, min);
  }
}
