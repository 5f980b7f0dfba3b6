package dev.javelin.recipes.driver;

import dev.javelin.datasets.ChatMessage;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.RolloutConfig;
import dev.javelin.recipes.task.PromptedExample;
import dev.javelin.rewards.RewardResult;
import dev.javelin.rewards.ScoredBatch;
import dev.javelin.sampler.GenerationResult;
import dev.javelin.sampler.SamplingParams;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Validation, as VeRL reports it, over every validation file at once: a greedy pass gives {@code
 * val-core/<data_source>/<acc or reward>/mean@1} per data source (and {@code val-aux/...} for the
 * reward's other numeric extras); with {@code val_kwargs.n > 1} a sampled pass adds VeRL's {@code
 * mean@n}, {@code best@k}, {@code worst@k} and {@code maj@k} statistics ({@link
 * ValidationMetrics}). With {@code trainer.log_val_generations = N} the greedy pass's N sample
 * generations are appended to {@code val_generations.jsonl}.
 */
public final class Validator {
  private final SamplerPool pool;
  private final Scoring scoring;
  private final RequestFactory requests;
  private final List<PromptedExample> val;
  private final RolloutConfig rollout;
  private final int maxResponse;
  private final int[] stops;
  private final int logGenerations;
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
    this.logGenerations = recipe.trainer().logValGenerations();
  }

  /** Also writes {@code trainer.log_val_generations} greedy generations to {@code file}. */
  Validator logSamplesTo(Path file) {
    this.samples = logGenerations > 0 ? new ValidationLog(file, logGenerations) : null;
    return this;
  }

  /** Whether there is anything to validate on. */
  public boolean enabled() {
    return !val.isEmpty();
  }

  /** Runs validation with the samplers' current weights. */
  public Map<String, Double> run(long step) {
    Map<String, Double> m =
        new LinkedHashMap<>(pass(step, 1, SamplingParams.greedy(maxResponse, stops)));
    if (rollout.valN() > 1) {
      SamplingParams params =
          new SamplingParams(
              rollout.valTemperature(),
              rollout.valTopK(),
              rollout.valTopP(),
              rollout.minP(),
              maxResponse,
              stops,
              false);
      m.putAll(pass(step, rollout.valN(), params));
    }
    return m;
  }

  private Map<String, Double> pass(long step, int n, SamplingParams params) {
    GenerationResult gen = pool.generate(requests.requests("val", step, val, n, params));
    List<PromptedExample> sources = new ArrayList<>(gen.rollouts().size());
    List<String> dataSources = new ArrayList<>(val.size());
    for (PromptedExample p : val) {
      dataSources.add(p.example().dataSource());
      for (int k = 0; k < n; k++) {
        sources.add(p);
      }
    }
    ScoredBatch scored = scoring.score(gen.rollouts(), sources);
    List<ValidationMetrics.Response> responses = new ArrayList<>(scored.results().size());
    for (RewardResult r : scored.results()) {
      responses.add(record(r));
    }
    if (samples != null && n == 1) {
      logSamples(step, gen, scored);
    }
    return ValidationMetrics.compute(dataSources, n, responses);
  }

  /**
   * VeRL's variables of one response: {@code reward} (the score) and each numeric or boolean extra;
   * a string {@code pred} extra is the answer majority voting counts.
   */
  static ValidationMetrics.Response record(RewardResult r) {
    Map<String, Double> vars = new LinkedHashMap<>();
    vars.put("reward", r.score());
    r.extras()
        .forEach(
            (k, v) -> {
              if (v instanceof Boolean b) {
                vars.put(k, b ? 1.0 : 0.0);
              } else if (v instanceof Number num && Double.isFinite(num.doubleValue())) {
                vars.put(k, num.doubleValue());
              }
            });
    Object pred = r.extras().get("pred");
    return new ValidationMetrics.Response(vars, pred == null ? null : String.valueOf(pred));
  }

  private void logSamples(long step, GenerationResult gen, ScoredBatch scored) {
    List<ValidationLog.Sample> all = new ArrayList<>(val.size());
    for (int i = 0; i < val.size(); i++) {
      PromptedExample p = val.get(i);
      List<ChatMessage> prompt = p.example().prompt();
      all.add(
          new ValidationLog.Sample(
              p.example().dataSource(),
              prompt.isEmpty() ? "" : prompt.get(prompt.size() - 1).content(),
              scoring.decode(gen.rollouts().get(i)),
              scored.results().get(i).score()));
    }
    samples.write(step, all);
  }
}
