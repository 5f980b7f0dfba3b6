package dev.javelin.recipes.api;

/**
 * Told of each logged step of a run, on the run's thread, after the step is in metrics.jsonl. A
 * listener that throws is logged and dropped: reporting never stops a run.
 */
@FunctionalInterface
public interface RunListener {
  /** One step's progress and metrics. */
  void onStep(RunEvent event);
}
