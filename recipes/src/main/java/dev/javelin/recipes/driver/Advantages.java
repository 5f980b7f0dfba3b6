package dev.javelin.recipes.driver;

import dev.javelin.grpo.AdvantageInput;
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
    return compute(samples(rollouts, scores), config, in -> in);
  }

  /**
   * The trainer's samples for {@code rollouts} scored {@code scores}, before the advantage stage:
   * every Â_t is 0 until {@link #compute(List, AlgorithmConfig, UnaryOperator)} sets it (the
   * log-prob passes that may come first do not read it).
   */
  static List<TrainSample> samples(List<Rollout> rollouts, double[] scores) {
    List<TrainSample> out = new ArrayList<>(rollouts.size());
    for (int r = 0; r < rollouts.size(); r++) {
      Rollout ro = rollouts.get(r);
      out.add(
          TrainSample.of(
              ro.promptUid(), ro.promptIds(), ro.responseIds(), ro.logProbs(), scores[r], 0.0));
    }
    return out;
  }

  /**
   * Runs the recipe's estimator over {@code samples}' scores, with {@code shaping} applied to the
   * (B, T) token rewards first (the in-reward KL penalty); returns the samples, log-probs kept,
   * with their advantages.
   */
  static Result compute(
      List<TrainSample> samples, AlgorithmConfig config, UnaryOperator<AdvantageInput> shaping) {
    int rows = samples.size();
    int cols = 1;
    double[] scores = new double[rows]; // (B,)
    for (int r = 0; r < rows; r++) {
      cols = Math.max(cols, samples.get(r).responseIds().length);
      scores[r] = samples.get(r).score();
    }
    boolean[] mask = new boolean[rows * cols]; // (B, T)
    String[] uids = new String[rows]; // (B,)
    for (int r = 0; r < rows; r++) {
      Arrays.fill(mask, r * cols, r * cols + samples.get(r).responseIds().length, true);
      uids[r] = samples.get(r).promptUid();
    }
    AdvantageInput input = shaping.apply(AdvantageInput.fromScores(rows, cols, scores, mask, uids));
    double[] adv = config.advEstimator().compute(input, config).advantages(); // (B, T)
    List<TrainSample> out = new ArrayList<>(rows);
    double sum = 0;
    double max = Double.NEGATIVE_INFINITY;
    double min = Double.POSITIVE_INFINITY;
    long count = 0;
    for (int r = 0; r < rows; r++) {
      int len = samples.get(r).responseIds().length;
      double[] a = Arrays.copyOfRange(adv, r * cols, r * cols + len); // (R)
      for (double v : a) {
        sum += v;
        max = Math.max(max, v);
        min = Math.min(min, v);
      }
      count += len;
      out.add(samples.get(r).withAdvantages(a));
    }
    return new Result(out, count == 0 ? 0 : sum / count, max, min);
  }
}
