package dev.javelin.recipes.driver;

import dev.javelin.datasets.Example;
import dev.javelin.datasets.Tokenizer;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.task.PromptedExample;
import dev.javelin.rewards.BatchScorer;
import dev.javelin.rewards.ProcessScorer;
import dev.javelin.rewards.RewardConfigException;
import dev.javelin.rewards.RewardFunction;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardRegistry;
import dev.javelin.rewards.RewardScorer;
import dev.javelin.rewards.RewardScorerConfig;
import dev.javelin.rewards.ScoredBatch;
import dev.javelin.rewards.worker.WorkerConfig;
import dev.javelin.sampler.Rollout;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decodes responses and scores them with the recipe's reward function (by default the data-source
 * dispatcher). A failing or slow reward call scores 0 and is counted, never thrown into the loop.
 */
public final class Scoring implements AutoCloseable {
  private final Tokenizer tokenizer;
  private final BatchScorer scorer;

  /** Resolves the recipe's {@code custom_reward_function}. */
  public Scoring(RecipeConfig recipe, Tokenizer tokenizer) {
    this(recipe, null, tokenizer);
  }

  /**
   * Scores with {@code reward} (a function built in code), or with the recipe's {@code
   * custom_reward_function} when it is null; the recipe's {@code reward.timeout_s} applies to both.
   */
  public Scoring(RecipeConfig recipe, RewardFunction reward, Tokenizer tokenizer) {
    this.tokenizer = tokenizer;
    this.scorer = scorer(recipe, reward);
  }

  /**
   * User code named by the recipe runs in reward worker processes (unless {@code
   * reward.workers.enable} is false); registered rewards and functions built in code run here.
   */
  private static BatchScorer scorer(RecipeConfig recipe, RewardFunction reward) {
    try {
      Optional<WorkerConfig> workers = recipe.rewardWorkers();
      if (reward == null && workers.isPresent() && ProcessScorer.runsUserCode(recipe.reward())) {
        return new ProcessScorer(recipe.reward(), workers.get());
      }
      RewardFunction fn =
          reward != null
              ? reward
              : RewardRegistry.forSpec(recipe.reward()).resolve(recipe.reward());
      return new RewardScorer(
          fn, RewardScorerConfig.defaults().withTimeout(recipe.rewardTimeout()));
    } catch (RewardConfigException e) {
      throw RecipeConfig.rewardProblem(e);
    }
  }

  /** The decoded text of a response, special tokens dropped. */
  public String decode(Rollout r) {
    return tokenizer.decode(r.responseIds(), true);
  }

  /**
   * Scores each rollout of {@code groups} against the prompt it answered.
   *
   * @return per-rollout results plus reward metrics
   */
  ScoredBatch score(RolloutGroups groups) {
    List<RewardInput> inputs = new ArrayList<>(groups.size());
    for (int i = 0; i < groups.size(); i++) {
      PromptedExample p = groups.promptOf(i);
      Example e = p.example();
      inputs.add(
          new RewardInput(
              e.dataSource(),
              p.promptText(),
              decode(groups.rollouts().get(i)),
              e.groundTruth(),
              e.extraInfo()));
    }
    try {
      return scorer.scoreAll(inputs);
    } catch (RewardConfigException e) { // the reward's workers keep dying at start-up
      throw RecipeConfig.rewardProblem(e);
    }
  }

  /** Reward calls made so far (training and validation). */
  long calls() {
    return scorer.totalCalls();
  }

  /** Calls that failed or timed out so far. */
  long failures() {
    return scorer.totalErrors() + scorer.totalTimeouts();
  }

  String functionName() {
    return scorer.functionName();
  }

  Optional<String> firstError() {
    return scorer.firstError();
  }

  /** The end-of-run line: calls, errors, timeouts, and the first error when there was one. */
  public String summary() {
    return "reward calls: "
        + calls()
        + ", errors: "
        + scorer.totalErrors()
        + ", timeouts: "
        + scorer.totalTimeouts()
        + firstError().map(e -> " (first: " + e + ")").orElse("");
  }

  @Override
  public void close() {
    scorer.close();
  }
}
