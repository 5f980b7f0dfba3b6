package dev.javelin.sampler;

import java.util.List;

/** Rollouts in request order, with the call's metrics. */
public record GenerationResult(List<Rollout> rollouts, SamplerMetrics metrics) {
  public GenerationResult {
    rollouts = List.copyOf(rollouts);
  }
}
