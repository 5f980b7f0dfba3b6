package dev.javelin.recipes.driver;

import dev.javelin.datasets.BatchSampler;
import dev.javelin.datasets.DataOrderState;
import dev.javelin.datasets.Example;
import java.util.List;

/** The run's data order, handing out {@link DrawnBatch}es that remember where it stood. */
final class BatchSource {
  private final BatchSampler order;

  BatchSource(BatchSampler order) {
    this.order = order;
  }

  /** The next batch, for GRPO step {@code step}. */
  DrawnBatch draw(int step) {
    DataOrderState before = order.state();
    List<Example> examples = order.next();
    return new DrawnBatch(step, examples, order.state().epoch(), before);
  }

  /**
   * The state a checkpoint saves: before {@code inFlight} when a prefetched batch has been drawn
   * but not trained on (so a resume draws it again), else the current one.
   */
  DataOrderState checkpointState(PendingGeneration inFlight) {
    return inFlight != null ? inFlight.batch().before() : order.state();
  }
}
