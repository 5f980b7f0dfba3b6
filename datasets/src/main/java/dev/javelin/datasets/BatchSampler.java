package dev.javelin.datasets;

import dev.javelin.datasets.order.EpochPermutation;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Hands out {@code train_batch_size} prompts per step over shuffled epochs, endlessly.
 *
 * <p>Epoch {@code e} visits every example once in the order {@link EpochPermutation#of}{@code (n,
 * seed, e)}. With {@code dropLast} an epoch ends when fewer than a full batch remain; otherwise its
 * last batch may be smaller. {@link #state()} after any step, given to a fresh sampler over the
 * same examples and config, continues with exactly the batches the original would have produced.
 */
public final class BatchSampler {
  private final List<Example> examples;
  private final DataOrderConfig config;
  private int epoch;
  private long position;
  private final long seed;
  private int[] order; // (n) example indices of the current epoch

  /** A sampler at the start of epoch 0 with {@code config.seed()}. */
  public BatchSampler(List<Example> examples, DataOrderConfig config) {
    this(examples, config, DataOrderState.start(config.seed()));
  }

  /** A sampler resumed from {@code state}, saved by a sampler over the same examples and config. */
  public BatchSampler(List<Example> examples, DataOrderConfig config, DataOrderState state) {
    this.examples = List.copyOf(Objects.requireNonNull(examples, "examples"));
    this.config = Objects.requireNonNull(config, "config");
    Objects.requireNonNull(state, "state");
    int n = this.examples.size();
    if (n == 0) {
      throw new IllegalArgumentException("data order: no examples to sample (dataset is empty)");
    }
    if (config.dropLast() && config.trainBatchSize() > n) {
      throw new IllegalArgumentException(
          "data order: trainBatchSize ("
              + config.trainBatchSize()
              + ") exceeds the dataset size ("
              + n
              + ") with drop_last; no batch would ever be produced");
    }
    if (state.position() > n) {
      throw new IllegalArgumentException(
          "data order state: position "
              + state.position()
              + " is past the dataset size "
              + n
              + "; the state belongs to another dataset");
    }
    this.epoch = state.epoch();
    this.position = state.position();
    this.seed = state.seed();
  }

  /** The next batch; full-sized except possibly an epoch's last when {@code dropLast} is off. */
  public List<Example> next() {
    int n = examples.size();
    int batch = config.trainBatchSize();
    long remaining = n - position;
    if (remaining == 0 || (config.dropLast() && remaining < batch)) {
      epoch = Math.addExact(epoch, 1);
      position = 0;
      order = null;
    }
    if (order == null) {
      order = config.shuffle() ? EpochPermutation.of(n, seed, epoch) : EpochPermutation.identity(n);
    }
    int from = (int) position;
    int to = (int) Math.min(position + batch, n);
    List<Example> out = new ArrayList<>(to - from);
    for (int i = from; i < to; i++) {
      out.add(examples.get(order[i]));
    }
    position = to;
    return List.copyOf(out);
  }

  /** Where the sampler stands now; the next {@link #next()} starts here. */
  public DataOrderState state() {
    return new DataOrderState(epoch, position, seed);
  }

  /** Batches per epoch: {@code floor(n/b)} with {@code dropLast}, else {@code ceil(n/b)}. */
  public int batchesPerEpoch() {
    int n = examples.size();
    int batch = config.trainBatchSize();
    return config.dropLast() ? n / batch : (n + batch - 1) / batch;
  }

  /** How many examples the sampler draws from. */
  public int size() {
    return examples.size();
  }
}
