package dev.javelin.recipes.driver;

import java.util.Map;

/**
 * Told each logged step's metrics (step 0 is the validation before training), after metrics.jsonl.
 * A listener that throws is logged and dropped: reporting never stops a run.
 */
@FunctionalInterface
public interface StepListener {
  void onStep(int step, int totalSteps, Map<String, Double> metrics);
}
