package dev.javelin.recipes.driver;

import dev.javelin.datasets.DataOrderState;
import dev.javelin.datasets.Example;
import java.util.List;
import java.util.Objects;

/**
 * A training batch taken from the data order, with the order's state from just BEFORE it was taken:
 * a checkpoint written while this batch is still in flight (one_step_off's prefetch) saves {@code
 * before}, so a resumed run draws, and regenerates, exactly this batch again.
 *
 * @param step the GRPO step (1-based) that trains on it
 * @param examples the prompts, in batch order
 * @param epoch the data-order epoch the batch belongs to
 * @param before where the data order stood before drawing it
 */
record DrawnBatch(int step, List<Example> examples, int epoch, DataOrderState before) {
  DrawnBatch {
    examples = List.copyOf(examples);
    Objects.requireNonNull(before, "before");
  }
}
