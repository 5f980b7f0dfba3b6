package dev.javelin.trainer.engine;

import dev.javelin.backend.distributed.Gang;
import dev.javelin.grpo.correction.RolloutProbsDiff;
import dev.javelin.trainer.TrainSample;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Collects π_old for one update's samples, from the samples or, for mini-batches that took their
 * own (the on-policy shortcut), from the first optimizer step's forward pass, and reports how far
 * the samplers' probabilities are from it ({@link RolloutProbsDiff}) over the whole batch.
 */
final class RolloutMismatch {
  private final IdentityHashMap<TrainSample, double[]> taken = new IdentityHashMap<>();
  private final Gang gang; // null: one process

  RolloutMismatch() {
    this(null);
  }

  /** With {@code gang}, each rank takes π_old of its own micro-batches: they are shared first. */
  RolloutMismatch(Gang gang) {
    this.gang = gang != null && gang.size() > 1 ? gang : null;
  }

  /**
   * Records the π_old that {@code s} took from the forward pass, (R) from {@code row} of (B, W).
   */
  void take(TrainSample s, double[] logp, int row, int width) {
    double[] old = new double[s.responseIds().length];
    System.arraycopy(logp, row * width, old, 0, old.length);
    taken.put(s, old);
  }

  /** The metrics over every response token of {@code samples}; empty if one has no π_old. */
  Map<String, Double> metrics(List<TrainSample> samples) {
    if (gang != null) {
      Map<Integer, double[]> mine = new TreeMap<>();
      for (int i = 0; i < samples.size(); i++) {
        double[] took = taken.get(samples.get(i));
        if (took != null) {
          mine.put(i, took);
        }
      }
      GangShare.rows(gang, mine, samples.size()).forEach((i, v) -> taken.put(samples.get(i), v));
    }
    int width = 0;
    for (TrainSample s : samples) {
      width = Math.max(width, s.responseIds().length);
    }
    int b = samples.size();
    double[] actor = new double[b * width]; // (B, W)
    double[] rollout = new double[b * width];
    boolean[] mask = new boolean[b * width];
    for (int i = 0; i < b; i++) {
      TrainSample s = samples.get(i);
      double[] took = taken.get(s);
      if (s.oldLogProbs() == null && took == null) {
        return Map.of();
      }
      for (int k = 0; k < s.responseIds().length; k++) {
        int at = i * width + k;
        actor[at] = took != null ? took[k] : s.oldLogProbs()[k];
        rollout[at] = s.rolloutLogProbs()[k];
        mask[at] = true;
      }
    }
    return RolloutProbsDiff.metrics(actor, rollout, mask, b, width);
  }
}
