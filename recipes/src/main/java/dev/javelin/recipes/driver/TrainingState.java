package dev.javelin.recipes.driver;

import dev.javelin.datasets.DataOrderState;
import dev.javelin.recipes.config.DataConfig;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The driver's part of a checkpoint ({@code trainer_state.json}'s extra map): the step, the data
 * order position, and the held-out accuracy the run started from. Sampling needs no RNG state: each
 * request's seed is a pure function of (seed, step, prompt, sample).
 *
 * @param globalStep steps completed
 * @param data where the data order stands
 * @param startAccuracy held-out greedy accuracy before step 1 (NaN when not measured)
 */
public record TrainingState(int globalStep, DataOrderState data, double startAccuracy) {

  /** The string map saved with the trainer's checkpoint. */
  public Map<String, String> toExtra() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("global_step", Integer.toString(globalStep));
    m.put("data.epoch", Integer.toString(data.epoch()));
    m.put("data.position", Long.toString(data.position()));
    m.put(DataConfig.SEED.name(), Long.toString(data.seed()));
    m.put("val.start_acc", Double.toString(startAccuracy));
    return m;
  }

  /** Reads what {@link #toExtra} wrote; a missing or malformed entry names itself. */
  public static TrainingState fromExtra(Map<String, String> m) {
    return new TrainingState(
        Integer.parseInt(need(m, "global_step")),
        new DataOrderState(
            Integer.parseInt(need(m, "data.epoch")),
            Long.parseLong(need(m, "data.position")),
            Long.parseLong(need(m, DataConfig.SEED.name()))),
        Double.parseDouble(m.getOrDefault("val.start_acc", "NaN")));
  }

  private static String need(Map<String, String> m, String key) {
    String v = m.get(key);
    if (v == null) {
      throw new IllegalStateException(
          "checkpoint's trainer_state.json lacks '" + key + "'; was it written by `javelin run`?");
    }
    return v.strip();
  }
}
