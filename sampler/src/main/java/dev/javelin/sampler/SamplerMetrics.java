package dev.javelin.sampler;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one {@code generate} call did. Response-length statistics use VeRL's names; clip ratio is
 * the share of responses cut by the length cap.
 *
 * @param responses number of rollouts
 * @param promptTokens prompt tokens processed
 * @param responseTokens tokens generated
 * @param seconds wall time of the call
 * @param prefills prefill programs run
 * @param decodeSteps decode programs run
 * @param rows cache rows (batch) used
 */
public record SamplerMetrics(
    int responses,
    long promptTokens,
    long responseTokens,
    double seconds,
    int prefills,
    int decodeSteps,
    int rows,
    double lengthMean,
    int lengthMax,
    int lengthMin,
    double clipRatio) {

  /** Summarises {@code rollouts}. */
  public static SamplerMetrics of(
      List<Rollout> rollouts, double seconds, int prefills, int decodeSteps, int rows) {
    long prompt = 0;
    long response = 0;
    int max = 0;
    int min = rollouts.isEmpty() ? 0 : Integer.MAX_VALUE;
    int clipped = 0;
    for (Rollout r : rollouts) {
      prompt += r.promptLength();
      response += r.responseLength();
      max = Math.max(max, r.responseLength());
      min = Math.min(min, r.responseLength());
      clipped += r.finish() == FinishReason.LENGTH ? 1 : 0;
    }
    int n = Math.max(1, rollouts.size());
    return new SamplerMetrics(
        rollouts.size(),
        prompt,
        response,
        seconds,
        prefills,
        decodeSteps,
        rows,
        (double) response / n,
        max,
        min,
        (double) clipped / n);
  }

  /** Generated tokens per second of wall time. */
  public double tokensPerSecond() {
    return seconds > 0 ? responseTokens / seconds : 0;
  }

  /** VeRL-style metric names. */
  public Map<String, Double> toMap() {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("response_length/mean", lengthMean);
    m.put("response_length/max", (double) lengthMax);
    m.put("response_length/min", (double) lengthMin);
    m.put("response_length/clip_ratio", clipRatio);
    m.put("sampler/tokens_per_s", tokensPerSecond());
    m.put("sampler/response_tokens", (double) responseTokens);
    m.put("sampler/prompt_tokens", (double) promptTokens);
    m.put("sampler/decode_steps", (double) decodeSteps);
    m.put("sampler/seconds", seconds);
    return m;
  }
}
