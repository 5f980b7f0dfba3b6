package dev.javelin.recipes.driver;

import dev.javelin.datasets.ChatMessage;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.RolloutConfig;
import dev.javelin.recipes.metrics.HeldOut;
import dev.javelin.recipes.task.PromptedExample;
import dev.javelin.rewards.RewardResult;
import dev.javelin.rewards.ScoredBatch;
import dev.javelin.sampler.GenerationResult;
import dev.javelin.sampler.SamplingParams;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Validation, as VeRL reports it: a greedy pass gives {@code val-core/<source>/acc/mean@1}; with
 * {@code val_kwargs.n > 1} (sampling) a second pass gives {@code mean@n} (mean accuracy of the n
 * samples) and {@code maj@n/mean} (accuracy of each prompt's most frequent answer). {@code
 * val/acc/mean@1} is the accuracy over all sources.
 */
public final class Validator {
  private final SamplerPool pool;
  private final Scoring scoring;
  private final RequestFactory requests;
  private final List<PromptedExample> val;
  private final RolloutConfig rollout;
  private final int maxResponse;
  private final int[] stops;
  private ValidationLog samples;

  public Validator(
      SamplerPool pool,
      Scoring scoring,
      RequestFactory requests,
      RecipeConfig recipe,
      List<PromptedExample> val,
      int[] stopTokenIds) {
    this.pool = pool;
    this.scoring = scoring;
    this.requests = requests;
    this.val = List.copyOf(val);
    this.rollout = recipe.rollout();
    this.maxResponse = recipe.data().maxResponseLength();
    this.stops = stopTokenIds.clone();
  }

  /** Also writes sample greedy generations of each validation to {@code file}. */
  Validator logSamplesTo(Path file) {
    this.samples = new ValidationLog(file);
    return this;
  }

  /** Whether there is anything to validate on. */
  public boolean enabled() {
    return !val.isEmpty();
  }

  /** Runs validation with the samplers' current weights. */
  public Map<String, Double> run(long step) {
    Map<String, Double> m = new LinkedHashMap<>();
    Pass greedy = pass(step, 1, SamplingParams.greedy(maxResponse, stops));
    // VeRL names each value by the reward's own variable: acc when reported, else the score.
    String var = greedy.reportsAcc() ? "acc" : "reward";
    greedy.accuracyBySource(1, false).forEach((src, acc) -> m.put(key(src, var, "mean@1"), acc));
    m.put(greedy.reportsAcc() ? HeldOut.ACC : HeldOut.REWARD, greedy.overall());
    if (rollout.valN() > 1) {
      int n = rollout.valN();
      SamplingParams params =
          new SamplingParams(
              rollout.valTemperature(),
              rollout.topK(),
              rollout.topP(),
              rollout.minP(),
              maxResponse,
              stops,
              false);
      Pass sampled = pass(step, n, params);
      String sv = sampled.reportsAcc() ? "acc" : "reward";
      sampled
          .accuracyBySource(n, false)
          .forEach((src, acc) -> m.put(key(src, sv, "mean@" + n), acc));
      sampled
          .accuracyBySource(n, true)
          .forEach((src, acc) -> m.put(key(src, sv, "maj@" + n + "/mean"), acc));
    }
    return m;
  }

  private static String key(String source, String var, String stat) {
    return "val-core/" + source + "/" + var + "/" + stat;
  }

  private Pass pass(long step, int n, SamplingParams params) {
    GenerationResult gen = pool.generate(requests.requests("val", step, val, n, params));
    List<PromptedExample> sources = new ArrayList<>(gen.rollouts().size());
    for (PromptedExample p : val) {
      for (int k = 0; k < n; k++) {
        sources.add(p);
      }
    }
    ScoredBatch scored = scoring.score(gen.rollouts(), sources);
    List<String> answers = new ArrayList<>();
    for (int i = 0; i < gen.rollouts().size(); i++) {
      Object pred = scored.results().get(i).extras().get("pred");
      answers.add(pred instanceof String s ? s : scoring.decode(gen.rollouts().get(i)).strip());
    }
    if (samples != null && n == 1) {
      logSamples(step, gen, scored);
    }
    return new Pass(scored.results(), answers);
  }

  private void logSamples(long step, GenerationResult gen, ScoredBatch scored) {
    int k = Math.min(ValidationLog.SAMPLES, val.size());
    List<String> sources = new ArrayList<>(k);
    List<List<ChatMessage>> prompts = new ArrayList<>(k);
    List<String> responses = new ArrayList<>(k);
    double[] scores = new double[k];
    for (int i = 0; i < k; i++) {
      sources.add(val.get(i).example().dataSource());
      prompts.add(val.get(i).example().prompt());
      responses.add(scoring.decode(gen.rollouts().get(i)));
      scores[i] = scored.results().get(i).score();
    }
    samples.write(step, sources, prompts, responses, scores);
  }

  /** One validation pass: n results per prompt, in prompt order. */
  private final class Pass {
    private final List<RewardResult> results;
    private final List<String> answers;

    Pass(List<RewardResult> results, List<String> answers) {
      this.results = results;
      this.answers = answers;
    }

    /** Whether the reward reported an {@code acc} extra for any result. */
    boolean reportsAcc() {
      return results.stream().anyMatch(r -> r.extras().containsKey("acc"));
    }

    double overall() {
      double sum = 0;
      for (RewardResult r : results) {
        sum += accuracy(r);
      }
      return results.isEmpty() ? Double.NaN : sum / results.size();
    }

    /** Per data source: mean accuracy over samples, or of each prompt's majority answer. */
    Map<String, Double> accuracyBySource(int n, boolean majority) {
      Map<String, double[]> sums = new TreeMap<>(); // source -> {sum, count}
      for (int p = 0; p < val.size(); p++) {
        double acc = majority ? majority(p * n, n) : mean(p * n, n);
        double[] s = sums.computeIfAbsent(val.get(p).example().dataSource(), k -> new double[2]);
        s[0] += acc;
        s[1] += 1;
      }
      Map<String, Double> out = new LinkedHashMap<>();
      sums.forEach((src, s) -> out.put(src, s[0] / s[1]));
      return out;
    }

    private double mean(int from, int n) {
      double sum = 0;
      for (int i = from; i < from + n; i++) {
        sum += accuracy(results.get(i));
      }
      return sum / n;
    }

    private double majority(int from, int n) {
      Map<String, Integer> votes = new HashMap<>();
      int best = from;
      int bestVotes = 0;
      for (int i = from; i < from + n; i++) {
        int v = votes.merge(answers.get(i), 1, Integer::sum);
        if (v > bestVotes) {
          bestVotes = v;
          best = i;
        }
      }
      return accuracy(results.get(best));
    }
  }

  /** The reward's own {@code acc} extra when it reports one, else the score. */
  static double accuracy(RewardResult r) {
    Object acc = r.extras().get("acc");
    if (acc instanceof Boolean b) {
      return b ? 1 : 0;
    }
    if (acc instanceof Number num) {
      return num.doubleValue();
    }
    return r.score();
  }
}
