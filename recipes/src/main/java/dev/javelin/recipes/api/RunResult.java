package dev.javelin.recipes.api;

import dev.javelin.recipes.driver.RunSummary;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * How a run ended.
 *
 * @param summary steps, held-out accuracy at start and end, wall time, whether it was stopped
 * @param checkpoint the newest checkpoint in the run directory ({@code global_step_N}, an HF model
 *     directory plus trainer state), or null when none was written
 * @param metrics the last logged step's metrics (empty when no step was logged)
 */
public record RunResult(RunSummary summary, Path checkpoint, Map<String, Double> metrics) {
  /** Copies the metrics. */
  public RunResult {
    metrics = Map.copyOf(metrics);
  }

  /** The newest checkpoint, when the run wrote one. */
  public Optional<Path> finalCheckpoint() {
    return Optional.ofNullable(checkpoint);
  }

  /** The run directory: checkpoints, metrics.jsonl, report.html. */
  public Path runDir() {
    return summary.runDir();
  }
}
