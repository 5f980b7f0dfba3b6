package dev.javelin.recipes.driver;

import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.task.PromptedExample;
import dev.javelin.rewards.ScoredBatch;
import dev.javelin.sampler.GenerationResult;
import dev.javelin.trainer.PolicyRole;
import dev.javelin.trainer.TrainSample;
import dev.javelin.trainer.Trainer;
import dev.javelin.trainer.TrainerConfig;
import dev.javelin.trainer.engine.PpoUpdater;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

  PolicyUpdate(RecipeConfig recipe, Trainer trainer, Scoring scoring) {
    this.recipe = recipe;
    this.trainer = trainer;
    this.scoring = scoring;
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

  /** Scores {@code gen} (n rollouts per prompt of {@code prompts}, in order) and trains on it. */
  Result run(GenerationResult gen, List<PromptedExample> prompts, PhaseTimer timer) {
    int n = recipe.rollout().n();
    List<PromptedExample> sources = new ArrayList<>(gen.rollouts().size());
    prompts.forEach(
        p -> {
          for (int k = 0; k < n; k++) {
            sources.add(p);
          }
        });
    ScoredBatch scored = timer.time("reward", () -> scoring.score(gen.rollouts(), sources));
    double[] scores = scored.scores();
    Advantages.Result adv =
        timer.time("adv", () -> Advantages.compute(gen.rollouts(), scores, recipe.algorithm()));
    List<TrainSample> samples = adv.samples();
    TrainerConfig tc = recipe.trainerConfig(1);
    if (!tc.bypassesOldLogProbs() && !tc.oldLogProbsInUpdate()) {
      samples = timer.time("old_log_prob", () -> withLogProbs(adv.samples(), PolicyRole.ACTOR));
    }
    if (recipe.actor().loss().useKlLoss()) {
      List<TrainSample> withOld = samples;
      samples = timer.time("ref", () -> withLogProbs(withOld, PolicyRole.REFERENCE));
    }
    List<TrainSample> ready = samples;
    Map<String, Double> m =
        new LinkedHashMap<>(timer.time("update_actor", () -> trainer.update(ready)));
    Double old = m.remove(PpoUpdater.OLD_LOG_PROB_SECONDS); // π_old taken inside the update
    if (old != null) {
      timer.split("update_actor", "old_log_prob", old);
    }
    return new Result(m, scores, adv, scored.metrics());
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
