package dev.javelin.backend.runtime;

/**
 * How a {@link PolicyOptimizer} step shares its micro-batches with other processes that hold the
 * same weights: this rank computes micro-batch {@code i} when {@link #computes} says so, and before
 * the update its summed gradients and scalars are summed over every rank, so every rank applies the
 * same update. {@link #LOCAL} is one process computing everything.
 */
public interface GradientReducer {
  /** One process: every micro-batch here, nothing to sum. */
  GradientReducer LOCAL =
      new GradientReducer() {
        @Override
        public int rank() {
          return 0;
        }

        @Override
        public int size() {
          return 1;
        }

        @Override
        public void sum(float[][] gradients, double[] scalars) {}
      };

  /** This process's place, {@code 0 <= rank < size}. */
  int rank();

  /** How many processes share each step. */
  int size();

  /** Whether this rank computes micro-batch {@code microBatch}: round-robin over the ranks. */
  default boolean computes(int microBatch) {
    return microBatch % size() == rank();
  }

  /**
   * Replaces every array with its sum over the ranks, in place; every rank must get bit-identical
   * sums (add the parts in a fixed order).
   */
  void sum(float[][] gradients, double[] scalars);
}
