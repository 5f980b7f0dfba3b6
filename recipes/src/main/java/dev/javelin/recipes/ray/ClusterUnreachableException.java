package dev.javelin.recipes.ray;

/**
 * Nothing answers at the Ray cluster's address, or joining it failed: the command line exits 3 with
 * this one-line message, as it does when the cluster's dashboard cannot be reached.
 */
public final class ClusterUnreachableException extends RuntimeException {
  public ClusterUnreachableException(String message, Throwable cause) {
    super(message, cause);
  }
}
