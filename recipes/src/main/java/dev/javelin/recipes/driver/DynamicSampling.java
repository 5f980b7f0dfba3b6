package dev.javelin.recipes.driver;

import dev.javelin.datasets.Example;
import dev.javelin.grpo.FilterGroupsConfig;
import dev.javelin.grpo.dapo.DynamicSampler;
import dev.javelin.grpo.dapo.ScoredGroup;
import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.FilterGroupsKeys;
import dev.javelin.recipes.config.OverlongBufferKeys;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.task.PromptedExample;
import dev.javelin.rewards.RewardResult;
import dev.javelin.rewards.ScoredBatch;
import dev.javelin.sampler.GenerationResult;
import dev.javelin.sampler.Rollout;
import dev.javelin.sampler.SamplerMetrics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * DAPO dynamic sampling for one step ({@code algorithm.filter_groups}): draws and generates rounds
 * of {@code data.gen_batch_size} prompts, scores them, drops the groups whose metric is flat, and
 * stops once {@code train_batch_size} groups are kept (the surplus is discarded, as VeRL does). The
 * data order advances by every round drawn, so a checkpoint after the step resumes exactly.
 */
final class DynamicSampling {
  private final RecipeConfig recipe;
  private final Scoring scoring;

  DynamicSampling(RecipeConfig recipe, Scoring scoring) {
    this.recipe = recipe;
    this.scoring = scoring;
  }

  /** One prompt's responses and their rewards. */
  private record Group(
      Example example,
      PromptedExample prompt,
      List<Rollout> rollouts,
      List<RewardResult> rewards) {}

  /**
   * The step's kept groups, as one batch.
   *
   * @param batch the kept prompts (data-order state from before the first round)
   * @param gen their rollouts, n per prompt in order; metrics summed over every round
   * @param scored their rewards
   * @param metrics {@code train/num_gen_batches}, {@code train/num_dropped_groups}
   */
  record Collected(
      DrawnBatch batch,
      PendingGeneration.Timed gen,
      ScoredBatch scored,
      Map<String, Double> metrics) {}

  /**
   * Runs the rounds; {@code draw} takes the next prompts, {@code generate} generates round r
   * (1-based) of them.
   */
  Collected collect(
      int step,
      Function<Integer, DrawnBatch> draw,
      BiFunction<DrawnBatch, Integer, PendingGeneration.Timed> generate,
      Function<DrawnBatch, List<PromptedExample>> prompts) {
    FilterGroupsConfig fg = recipe.algorithm().filterGroups();
    DynamicSampler<Group> sampler = new DynamicSampler<>(recipe.data().trainBatchSize(), fg);
    DrawnBatch first = null;
    DrawnBatch last = null;
    double seconds = 0;
    int prefills = 0;
    int decodeSteps = 0;
    int rows = 0;
    Map<String, Double> rewardMetrics = new LinkedHashMap<>();
    while (!sampler.isFull()) {
      if (!sampler.mayGenerateMore()) {
        throw new ConfigException(
            FilterGroupsKeys.MAX_NUM_GEN_BATCHES.name()
                + ": "
                + sampler.generationBatches()
                + " generation rounds kept only "
                + sampler.keptGroups()
                + " of "
                + recipe.data().trainBatchSize()
                + " groups at step "
                + step
                + "; the data may be too hard or too easy; raise the cap or set it to 0 (no cap)");
      }
      last = draw.apply(step);
      first = first == null ? last : first;
      PendingGeneration.Timed t = generate.apply(last, sampler.generationBatches() + 1);
      SamplerMetrics sm = t.result().metrics();
      seconds += t.seconds();
      prefills += sm.prefills();
      decodeSteps += sm.decodeSteps();
      rows += sm.rows();
      sampler.add(groups(last, prompts.apply(last), t.result().rollouts(), rewardMetrics));
    }
    return assemble(first, last, sampler, seconds, prefills, decodeSteps, rows, rewardMetrics);
  }

  private Collected assemble(
      DrawnBatch first,
      DrawnBatch last,
      DynamicSampler<Group> sampler,
      double seconds,
      int prefills,
      int decodeSteps,
      int rows,
      Map<String, Double> rewardMetrics) {
    List<Example> examples = new ArrayList<>();
    List<Rollout> rollouts = new ArrayList<>();
    List<RewardResult> rewards = new ArrayList<>();
    for (Group g : sampler.take()) {
      examples.add(g.example());
      rollouts.addAll(g.rollouts());
      rewards.addAll(g.rewards());
    }
    GenerationResult gen =
        new GenerationResult(
            rollouts, SamplerMetrics.of(rollouts, seconds, prefills, decodeSteps, rows));
    DrawnBatch batch = new DrawnBatch(first.step(), examples, last.epoch(), first.before());
    return new Collected(
        batch,
        new PendingGeneration.Timed(gen, seconds),
        new ScoredBatch(rewards, rewardMetrics),
        new LinkedHashMap<>(sampler.metrics()));
  }

  /** Scores one round and cuts it into groups of n, with the filter metric of each response. */
  private List<ScoredGroup<Group>> groups(
      DrawnBatch batch,
      List<PromptedExample> prompts,
      List<Rollout> rollouts,
      Map<String, Double> rewardMetrics) {
    RolloutGroups groups = new RolloutGroups(prompts, rollouts, recipe.rollout().n());
    ScoredBatch scored = scoring.score(groups);
    scored.metrics().forEach((k, v) -> rewardMetrics.merge(k, v, Double::sum));
    int n = groups.n();
    List<ScoredGroup<Group>> out = new ArrayList<>(prompts.size());
    for (int p = 0; p < prompts.size(); p++) {
      List<Rollout> rs = groups.groupOf(rollouts, p);
      List<RewardResult> rw = groups.groupOf(scored.results(), p);
      double[] metric = new double[n]; // (n,)
      for (int k = 0; k < n; k++) {
        metric[k] = metric(rw.get(k), rs.get(k));
      }
      Group g =
          new Group(batch.examples().get(p), prompts.get(p), List.copyOf(rs), List.copyOf(rw));
      out.add(new ScoredGroup<>(rs.get(0).promptUid(), metric, g));
    }
    return out;
  }

  /** The response's filter metric: its accuracy, raw score, or score with the overlong penalty. */
  private double metric(RewardResult r, Rollout rollout) {
    String name = recipe.algorithm().filterGroups().metric();
    OverlongBufferKeys.Shaping overlong = recipe.overlong();
    return switch (name) {
      case "acc" -> {
        Object acc = r.extras().get("acc");
        if (acc instanceof Boolean b) {
          yield b ? 1.0 : 0.0;
        }
        if (!(acc instanceof Number num)) {
          throw new ConfigException(
              FilterGroupsKeys.METRIC.assign("acc")
                  + ": the reward function returns no 'acc'; use"
                  + " metric=score or a reward that reports acc (e.g. math_dapo)");
        }
        yield num.doubleValue();
      }
      case "score" -> r.score();
      default ->
          r.score()
              + (overlong.enabled() ? overlong.penalty().penalty(rollout.responseLength()) : 0);
    };
  }
}
