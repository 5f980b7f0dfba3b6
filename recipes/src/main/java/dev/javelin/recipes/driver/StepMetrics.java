package dev.javelin.recipes.driver;

import dev.javelin.grpo.MetricNames;
import dev.javelin.sampler.GenerationResult;
import dev.javelin.sampler.SamplerMetrics;
import java.util.LinkedHashMap;
import java.util.Map;

/** VeRL's per-step data metrics: scores, advantages, lengths, throughput. */
final class StepMetrics {
  private StepMetrics() {}

  static Map<String, Double> of(
      int step,
      GenerationResult gen,
      double[] scores,
      Advantages.Result adv,
      Map<String, Double> rewardMetrics,
      double stepSeconds) {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("training/global_step", (double) step);
    Stats.put(m, MetricNames.SCORE, scores);
    Stats.put(m, "critic/rewards", scores);
    m.put("critic/advantages/mean", adv.mean());
    m.put("critic/advantages/max", adv.max());
    m.put("critic/advantages/min", adv.min());
    SamplerMetrics s = gen.metrics();
    m.putAll(s.toMap());
    double promptTokens = s.promptTokens();
    m.put("prompt_length/mean", promptTokens / Math.max(1, s.responses()));
    double tokens = promptTokens + s.responseTokens();
    m.put("perf/total_num_tokens", tokens);
    m.put(MetricNames.THROUGHPUT, tokens / stepSeconds);
    rewardMetrics.forEach((k, v) -> m.put(k.startsWith("reward/") ? k : "reward/" + k, v));
    return m;
  }
}
