package dev.javelin.rewards;

import java.util.List;
import java.util.Map;

/**
 * What {@link RewardScorer#scoreAll} returns: one result per input, in order, plus metrics under
 * VeRL-style names ({@code reward/mean}, {@code reward/errors}, {@code reward/timeouts}, ...).
 *
 * @param results one per input; failed or timed-out calls are {@link RewardResult#zero()}
 * @param metrics batch metrics
 */
public record ScoredBatch(List<RewardResult> results, Map<String, Double> metrics) {

  /** Freezes both collections. */
  public ScoredBatch {
    results = List.copyOf(results);
    metrics = Map.copyOf(metrics);
  }

  /** The scores as an array, in input order. */
  public double[] scores() {
    double[] s = new double[results.size()]; // (B,)
    for (int i = 0; i < s.length; i++) {
      s[i] = results.get(i).score();
    }
    return s;
  }
}
