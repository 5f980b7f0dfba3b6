package dev.javelin.trainer.engine;

import dev.javelin.backend.distributed.Gang;
import dev.javelin.grpo.MetricNames;
import java.util.Map;
import java.util.TreeMap;

/**
 * Collects metrics over micro-batches and optimizer steps. Loss terms computed with global
 * denominators ({@link #ADDITIVE}) add up over a mini-batch's micro-batches; everything else is
 * averaged. The reported value of each key is its mean over the optimizer steps that produced it,
 * as VeRL's {@code reduce_metrics} does.
 */
final class MetricSums {
  /** Keys whose micro-batch values sum to the mini-batch value. */
  static final java.util.Set<String> ADDITIVE =
      java.util.Set.of(MetricNames.PG_LOSS, MetricNames.ENTROPY, MetricNames.KL_LOSS);

  private final Map<String, double[]> steps = new TreeMap<>(); // key -> {sum, count}
  private Map<String, double[]> micro = new TreeMap<>();
  private final Gang gang; // null: one process

  /** Sums of one process. */
  MetricSums() {
    this(null);
  }

  /**
   * Sums whose micro-batches are spread over {@code gang}'s ranks (null: one process): each step's
   * micro-batch sums are merged over the ranks before they fold in.
   */
  MetricSums(Gang gang) {
    this.gang = gang != null && gang.size() > 1 ? gang : null;
  }

  /** Adds one micro-batch's metrics to the current optimizer step. */
  void addMicro(Map<String, Double> metrics) {
    metrics.forEach(
        (k, v) -> {
          double[] acc = micro.computeIfAbsent(k, x -> new double[2]);
          acc[0] += v;
          acc[1] += 1;
        });
  }

  /** Closes the current optimizer step, folding its micro-batch metrics and {@code extra} in. */
  void endStep(Map<String, Double> extra) {
    if (gang != null) {
      micro = new TreeMap<>(GangShare.sums(gang, micro));
    }
    micro.forEach((k, acc) -> add(k, ADDITIVE.contains(k) ? acc[0] : acc[0] / acc[1]));
    micro.clear();
    extra.forEach(this::add);
  }

  /** Mean over steps of every key. */
  Map<String, Double> means() {
    Map<String, Double> out = new TreeMap<>();
    steps.forEach((k, acc) -> out.put(k, acc[0] / acc[1]));
    return out;
  }

  private void add(String key, double value) {
    double[] acc = steps.computeIfAbsent(key, x -> new double[2]);
    acc[0] += value;
    acc[1] += 1;
  }
}
