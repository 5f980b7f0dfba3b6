package dev.javelin.recipes.driver;

import dev.javelin.grpo.AdvantageInput;
import dev.javelin.grpo.AlgorithmConfig;
import dev.javelin.grpo.kl.KlController;
import dev.javelin.grpo.kl.KlInReward;
import dev.javelin.recipes.config.OverlongBufferKeys;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.sampler.Rollout;
import dev.javelin.trainer.TrainSample;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * What a recipe changes between the reward function's scores and the advantages: DAPO's overlong
 * penalty on each score ({@code reward_model.overlong_buffer}) and −β·KL(π_old ‖ π_ref) on each
 * token reward ({@code algorithm.use_kl_in_reward}). Holds the KL controller across steps; like
 * VeRL, an adaptive β is not checkpointed and restarts from {@code kl_ctrl.kl_coef} on resume.
 */
final class RewardShaping {
  private final OverlongBufferKeys.Shaping overlong;
  private final AlgorithmConfig algorithm;
  private KlController controller;

  RewardShaping(RecipeConfig recipe) {
    this.overlong = recipe.overlong();
    this.algorithm = recipe.algorithm();
    this.controller = algorithm.useKlInReward() ? KlController.of(algorithm.klCtrl()) : null;
  }

  /** Whether token rewards carry the KL penalty (the old and reference log-probs come first). */
  boolean klInReward() {
    return controller != null;
  }

  /** {@code scores} plus each response's overlong penalty; metrics go to {@code m} when logged. */
  double[] withOverlongPenalty(List<Rollout> rollouts, double[] scores, Map<String, Double> m) {
    if (!overlong.enabled()) {
      return scores;
    }
    double[] out = scores.clone();
    double penaltySum = 0;
    int over = 0;
    for (int i = 0; i < out.length; i++) {
      double p = overlong.penalty().penalty(rollouts.get(i).responseLength());
      out[i] += p;
      penaltySum += p;
      over += p < 0 ? 1 : 0;
    }
    if (overlong.log() && out.length > 0) {
      m.put("reward/overlong_reward/mean", penaltySum / out.length);
      m.put("reward/overlong/fraction", (double) over / out.length);
    }
    return out;
  }

  /**
   * The transform that subtracts β·KL from the token rewards, the KL taken between the old and
   * reference log-probs of {@code withLogProbs} (row order = the advantage input's rows); it puts
   * {@code actor/reward_kl_penalty} and {@code actor/reward_kl_penalty_coeff} into {@code m} and
   * steps the controller.
   */
  UnaryOperator<AdvantageInput> klPenalty(List<TrainSample> withLogProbs, Map<String, Double> m) {
    return in -> {
      int rows = in.rows();
      int cols = in.cols();
      double[] old = new double[rows * cols]; // (B, T)
      double[] ref = new double[rows * cols]; // (B, T)
      for (int r = 0; r < rows; r++) {
        TrainSample s = withLogProbs.get(r);
        float[] o = s.oldLogProbs() != null ? s.oldLogProbs() : s.rolloutLogProbs();
        float[] f = s.refLogProbs();
        for (int t = 0; t < o.length; t++) {
          old[r * cols + t] = o[t];
          ref[r * cols + t] = f[t];
        }
      }
      KlInReward.Result res =
          KlInReward.apply(
              in.tokenRewards(),
              old,
              ref,
              in.mask(),
              rows,
              cols,
              algorithm.klPenalty(),
              controller);
      controller = res.next();
      m.putAll(res.metrics());
      return new AdvantageInput(
          rows, cols, res.rewards(), in.mask(), in.uids(), in.rewardBaselines());
    };
  }
}
