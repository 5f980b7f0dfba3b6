package dev.javelin.datasets;

/**
 * Where a {@link BatchSampler} stands: everything needed to resume exactly. Epoch {@code e}'s order
 * is a pure function of {@code (seed, e)}, so the state need not store the permutation. Serialises
 * as a plain JSON object with Jackson.
 *
 * @param epoch the current epoch, from 0
 * @param position index, within the current epoch's order, of the next prompt to hand out
 * @param seed the shuffle seed
 */
public record DataOrderState(int epoch, long position, long seed) {
  public DataOrderState {
    if (epoch < 0) {
      throw new IllegalArgumentException("data order state: epoch must be >= 0, got " + epoch);
    }
    if (position < 0) {
      throw new IllegalArgumentException(
          "data order state: position must be >= 0, got " + position);
    }
  }

  /** The start of epoch 0. */
  public static DataOrderState start(long seed) {
    return new DataOrderState(0, 0, seed);
  }
}
