package dev.javelin.recipes.api;

import java.util.Map;

/**
 * One logged step of a run, as written to metrics.jsonl (step 0 is the validation before training).
 *
 * @param step the step, from 0
 * @param totalSteps the run's last step
 * @param metrics the step's metrics under VeRL's names ({@code critic/score/mean}, {@code
 *     val-core/<data_source>/acc/mean@1}, {@code timing_s/step}, ...)
 */
public record RunEvent(int step, int totalSteps, Map<String, Double> metrics) {
  /** Copies the metrics. */
  public RunEvent {
    metrics = Map.copyOf(metrics);
  }
}
