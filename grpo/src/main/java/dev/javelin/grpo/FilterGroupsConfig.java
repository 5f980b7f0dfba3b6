package dev.javelin.grpo;

/**
 * DAPO dynamic sampling, {@code algorithm.filter_groups}.
 *
 * @param enable drop groups whose metric is the same for every response
 * @param metric the per-response metric to compare ({@code acc}, {@code score}, {@code seq_reward},
 *     ...); the driver looks it up, this module only needs the values
 * @param maxNumGenBatches cap on generation batches per training step; ≤ 0 means no cap
 */
public record FilterGroupsConfig(boolean enable, String metric, int maxNumGenBatches) {

  /** Validates that an enabled filter names its metric. */
  public FilterGroupsConfig {
    if (enable && (metric == null || metric.isBlank())) {
      throw new IllegalArgumentException("metric must be set when enable is true");
    }
  }

  /** VeRL's default: off. */
  public static FilterGroupsConfig disabled() {
    return new FilterGroupsConfig(false, null, 0);
  }
}
