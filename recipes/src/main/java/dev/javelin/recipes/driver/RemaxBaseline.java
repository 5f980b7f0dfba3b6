package dev.javelin.recipes.driver;

import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.task.PromptedExample;
import dev.javelin.rewards.ScoredBatch;
import dev.javelin.sampler.GenerationResult;
import dev.javelin.sampler.SamplingParams;
import java.util.HashMap;
import java.util.List;

/**
 * ReMax's baseline, as VeRL builds it: in the same step, the samplers generate one greedy response
 * per prompt with the step's weights; it is scored by the same reward (and overlong shaping) as the
 * sampled responses, and each of the prompt's n responses gets that score as its baseline b (Â_t =
 * G_t − b).
 */
final class RemaxBaseline {
  private final SamplerPool samplers;
  private final Scoring scoring;
  private final RewardShaping shaping;
  private final RequestFactory requests;
  private final SamplingParams greedy;

  RemaxBaseline(
      RecipeConfig recipe,
      SamplerPool samplers,
      Scoring scoring,
      RequestFactory requests,
      int[] stopTokenIds) {
    this.samplers = samplers;
    this.scoring = scoring;
    this.shaping = new RewardShaping(recipe);
    this.requests = requests;
    this.greedy = SamplingParams.greedy(recipe.data().maxResponseLength(), stopTokenIds);
  }

  /** The baseline generator of a run whose estimator needs one (ReMax), else null. */
  static RemaxBaseline ifRemax(RunParts parts, RequestFactory requests) {
    RecipeConfig recipe = parts.recipe();
    return recipe.algorithm().advEstimator().needsGreedyBaseline()
        ? new RemaxBaseline(
            recipe, parts.samplers(), parts.scoring(), requests, parts.task().stopTokenIds())
        : null;
  }

  /** What the baseline pass produced: one baseline per rollout (n per prompt, in order). */
  @SuppressWarnings("ArrayRecordComponent") // read once, by the advantage stage
  record Baselines(double[] perRollout, double meanScore) {}

  /** Generates and scores the greedy response of each prompt of {@code step}'s groups. */
  Baselines of(long step, RolloutGroups groups) {
    List<PromptedExample> prompts = groups.prompts();
    GenerationResult gen = samplers.generate(requests.requests("remax", step, prompts, 1, greedy));
    ScoredBatch scored = scoring.score(new RolloutGroups(prompts, gen.rollouts(), 1));
    double[] perPrompt =
        shaping.withOverlongPenalty(gen.rollouts(), scored.scores(), new HashMap<>()); // (B)
    double sum = 0;
    for (double b : perPrompt) {
      sum += b;
    }
    return new Baselines(
        groups.perRollout(perPrompt), perPrompt.length == 0 ? Double.NaN : sum / perPrompt.length);
  }
}
