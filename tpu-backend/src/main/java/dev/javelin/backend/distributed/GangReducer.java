package dev.javelin.backend.distributed;

import dev.javelin.backend.runtime.GradientReducer;

/**
 * A {@link GradientReducer} over a {@link Gang}: micro-batches round-robin over the ranks,
 * gradients and scalars summed through the gang's store.
 */
public record GangReducer(Gang gang) implements GradientReducer {
  @Override
  public int rank() {
    return gang.rank();
  }

  @Override
  public int size() {
    return gang.size();
  }

  @Override
  public void sum(float[][] gradients, double[] scalars) {
    if (gang.size() > 1) {
      gang.allReduceSum(gradients);
      gang.allReduceSum(scalars);
    }
  }
}
