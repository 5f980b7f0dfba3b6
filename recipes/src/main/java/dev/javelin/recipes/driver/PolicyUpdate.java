package dev.javelin.recipes.driver;

import dev.javelin.grpo.ActorLossConfig;
import dev.javelin.grpo.AdvantageInput;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.rewards.ScoredBatch;
import dev.javelin.trainer.PolicyRole;
import dev.javelin.trainer.TrainSample;
import dev.javelin.trainer.Trainer;
import dev.javelin.trainer.TrainerConfig;
import dev.javelin.trainer.UpdateResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The trainer's half of a GRPO step, in VeRL's order: rewards → advantages → old log-probs
 * (recomputed by the trainer; inside the update when {@link TrainerConfig#oldLogProbsInUpdate} lets
 * the first mini-batch take its own) → reference log-probs (KL loss) → PPO update. The rollouts'
 * own log-probs travel with each sample, so the loss can apply the recipe's rollout correction
 * (TIS) when the batch came from an older policy version.
 */
final class PolicyUpdate {
  private final RecipeConfig recipe;
  private final Trainer trainer;
  private final Scoring scoring;
  private final RewardShaping shaping;
  private final RemaxBaseline remax;

  /** {@code remax} generates ReMax's greedy baselines; null for every other estimator. */
  PolicyUpdate(RecipeConfig recipe, Trainer trainer, Scoring scoring, RemaxBaseline remax) {
    this.recipe = recipe;
    this.trainer = trainer;
    this.scoring = scoring;
    this.shaping = new RewardShaping(recipe);
    this.remax = remax;
  }

  /**
   * What the update produced.
   *
   * @param metrics the trainer's metrics ({@code actor/*}, {@code rollout_corr/*})
   * @param scores one reward per rollout, (B·n)
   * @param adv the advantages' statistics
   * @param rewardMetrics the reward stage's counters
   */
  @SuppressWarnings("ArrayRecordComponent") // scores are read once by the driver's metrics
  record Result(
      Map<String, Double> metrics,
      double[] scores,
      Advantages.Result adv,
      Map<String, Double> rewardMetrics) {}

  /** Scores {@code groups} and trains on them: one GRPO step's update at step {@code step}. */
  Result run(long step, RolloutGroups groups, PhaseTimer timer) {
    return run(step, groups, timer, null);
  }

  /** As {@link #run(long, RolloutGroups, PhaseTimer)}; {@code prescored} non-null skips scoring. */
  Result run(long step, RolloutGroups groups, PhaseTimer timer, ScoredBatch prescored) {
    ScoredBatch scored =
        prescored != null ? prescored : timer.time("reward", () -> scoring.score(groups));
    Map<String, Double> shapingMetrics = new LinkedHashMap<>();
    double[] scores =
        shaping.withOverlongPenalty(groups.rollouts(), scored.scores(), shapingMetrics);
    UnaryOperator<AdvantageInput> baseline = baselines(step, groups, shapingMetrics, timer);
    List<TrainSample> unscored = Advantages.samples(groups.rollouts(), scores);
    Advantages.Result adv;
    if (shaping.klInReward()) {
      // VeRL's order with the KL in the reward: old and reference log-probs, then r_t − β·KL, then
      // the advantages.
      List<TrainSample> lp = logProbs(unscored, true, timer);
      UnaryOperator<AdvantageInput> kl = shaping.klPenalty(lp, shapingMetrics);
      adv =
          timer.time(
              "adv",
              () -> Advantages.compute(lp, recipe.algorithm(), in -> baseline.apply(kl.apply(in))));
    } else {
      Advantages.Result a =
          timer.time("adv", () -> Advantages.compute(unscored, recipe.algorithm(), baseline));
      List<TrainSample> lp = logProbs(a.samples(), recipe.actor().loss().useKlLoss(), timer);
      adv = new Advantages.Result(lp, a.mean(), a.max(), a.min());
    }
    UpdateResult update = timer.time("update_actor", () -> trainer.update(adv.samples()));
    if (update.tookOldLogProbs()) { // π_old taken inside the update: its own phase
      timer.split("update_actor", "old_log_prob", update.oldLogProbSeconds());
    }
    Map<String, Double> m = new LinkedHashMap<>(update.metrics());
    m.putAll(shapingMetrics);
    return new Result(m, scores, adv, scored.metrics());
  }

  /**
   * ReMax's greedy baselines for the advantage input (VeRL's {@code gen_max} phase), or nothing for
   * the other estimators.
   */
  private UnaryOperator<AdvantageInput> baselines(
      long step, RolloutGroups groups, Map<String, Double> metrics, PhaseTimer timer) {
    if (remax == null) {
      return in -> in;
    }
    RemaxBaseline.Baselines b = timer.time("gen_max", () -> remax.of(step, groups));
    metrics.put(REMAX_BASELINE, b.meanScore());
    return in -> in.withRewardBaselines(b.perRollout());
  }

  /** The mean score of ReMax's greedy baseline responses. */
  static final String REMAX_BASELINE = "critic/remax_baseline/mean";

  /** Old log-probs (unless the trainer takes them itself), then reference ones when asked. */
  private List<TrainSample> logProbs(
      List<TrainSample> samples, boolean reference, PhaseTimer timer) {
    List<TrainSample> out = samples;
    ActorLossConfig loss = recipe.actor().loss();
    // The KL in the reward needs π_old before the update, so the update cannot take it itself.
    boolean needOld =
        shaping.klInReward()
            || !TrainerConfig.oldLogProbsInUpdate(loss, recipe.actor().ppoEpochs());
    if (!TrainerConfig.bypassesOldLogProbs(loss) && needOld) {
      List<TrainSample> in = out;
      out = timer.time("old_log_prob", () -> withLogProbs(in, PolicyRole.ACTOR));
    }
    if (reference) {
      List<TrainSample> in = out;
      out = timer.time("ref", () -> withLogProbs(in, PolicyRole.REFERENCE));
    }
    return out;
  }

  private List<TrainSample> withLogProbs(List<TrainSample> samples, PolicyRole role) {
    float[][] lp = trainer.logProbs(samples, role);
    List<TrainSample> out = new ArrayList<>(samples.size());
    for (int i = 0; i < samples.size(); i++) {
      TrainSample s = samples.get(i);
      out.add(role == PolicyRole.ACTOR ? s.withOldLogProbs(lp[i]) : s.withRefLogProbs(lp[i]));
    }
    return out;
  }
}
