package dev.javelin.trainer;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one policy update reports: its metrics, and how long of it went to π_old.
 *
 * @param metrics VeRL-named metrics ({@code actor/pg_loss}, {@code actor/grad_norm}, ...), in the
 *     order the trainer reported them
 * @param oldLogProbSeconds seconds the update spent on π_old for the mini-batches after the first
 *     (see {@link TrainerConfig#oldLogProbsInUpdate}), which the driver reports as its own phase;
 *     NaN when the samples came with their old log-probs
 */
public record UpdateResult(Map<String, Double> metrics, double oldLogProbSeconds) {

  public UpdateResult {
    metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
  }

  /** An update that took no π_old of its own. */
  public static UpdateResult of(Map<String, Double> metrics) {
    return new UpdateResult(metrics, Double.NaN);
  }

  /** Whether the update computed π_old itself ({@link #oldLogProbSeconds} is then a number). */
  public boolean tookOldLogProbs() {
    return !Double.isNaN(oldLogProbSeconds);
  }
}
