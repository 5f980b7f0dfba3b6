package dev.javelin.backend.graph;

/** Dimension bookkeeping for dot_general: the one place that derives its free dimensions. */
public final class DotShapes {
  private DotShapes() {}

  /**
   * Dimensions of a rank-{@code rank} operand that are neither batch nor contracting, ascending.
   */
  public static int[] free(int rank, int[] batch, int[] contract) {
    int[] out = new int[rank - batch.length - contract.length];
    for (int d = 0, j = 0; d < rank; d++) {
      if (!contains(batch, d) && !contains(contract, d)) {
        out[j++] = d;
      }
    }
    return out;
  }

  private static boolean contains(int[] a, int v) {
    for (int x : a) {
      if (x == v) {
        return true;
      }
    }
    return false;
  }
}
