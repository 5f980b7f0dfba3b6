package dev.javelin.grpo.dapo;

import dev.javelin.grpo.FilterGroupsConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * DAPO dynamic sampling for one training step. The driver adds each generation batch's scored
 * groups; flat groups (every response scored the same) are dropped; the driver keeps generating
 * while the batch {@link #isFull() is not full} and it {@link #mayGenerateMore() may generate
 * more}, then {@link #take() takes} exactly the target number of groups.
 *
 * <p>Mutable by design: it accumulates across generation rounds of one step. Not thread-safe.
 *
 * @param <G> the driver's payload per group
 */
public final class DynamicSampler<G> {
  private final int targetGroups;
  private final FilterGroupsConfig config;
  private final List<G> kept = new ArrayList<>();
  private int dropped;
  private int generationBatches;

  /**
   * @param targetGroups prompts per training batch ({@code data.train_batch_size}), >= 1
   * @param config {@code algorithm.filter_groups}; when disabled nothing is dropped
   */
  public DynamicSampler(int targetGroups, FilterGroupsConfig config) {
    if (targetGroups < 1) {
      throw new IllegalArgumentException("targetGroups must be >= 1, got " + targetGroups);
    }
    if (config == null) {
      throw new IllegalArgumentException("config must not be null");
    }
    this.targetGroups = targetGroups;
    this.config = config;
  }

  /** Adds one generation batch of scored groups; returns how many of them were dropped. */
  public int add(List<ScoredGroup<G>> groups) {
    generationBatches++;
    int before = dropped;
    for (ScoredGroup<G> g : groups) {
      if (!config.enable() || g.informative()) {
        kept.add(g.payload());
      } else {
        dropped++;
      }
    }
    return dropped - before;
  }

  /** Whether enough groups are kept for a training batch. */
  public boolean isFull() {
    return kept.size() >= targetGroups;
  }

  /** Whether the cap {@code max_num_gen_batches} still allows another generation batch. */
  public boolean mayGenerateMore() {
    return config.maxNumGenBatches() <= 0 || generationBatches < config.maxNumGenBatches();
  }

  /** Groups dropped so far. */
  public int droppedGroups() {
    return dropped;
  }

  /** Groups kept so far (may exceed the target). */
  public int keptGroups() {
    return kept.size();
  }

  /** Generation batches added so far. */
  public int generationBatches() {
    return generationBatches;
  }

  /**
   * The first {@code targetGroups} kept groups (the surplus is discarded, as VeRL aligns the
   * batch).
   *
   * @throws IllegalStateException if the batch is not full yet
   */
  public List<G> take() {
    if (!isFull()) {
      throw new IllegalStateException(
          "only " + kept.size() + " of " + targetGroups + " groups kept; generate more first");
    }
    return List.copyOf(kept.subList(0, targetGroups));
  }

  /** {@code train/num_gen_batches} and {@code train/num_dropped_groups}. */
  public Map<String, Double> metrics() {
    return Map.of(
        "train/num_gen_batches", (double) generationBatches,
        "train/num_dropped_groups", (double) dropped);
  }
}
