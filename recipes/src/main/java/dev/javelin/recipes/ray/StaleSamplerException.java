package dev.javelin.recipes.ray;

/**
 * A sampler was asked to generate with a weights version it does not hold (after a restart it holds
 * none): the pool reloads the current version and retries.
 */
public final class StaleSamplerException extends IllegalStateException {
  /** A sampler at {@code held} asked to generate at {@code wanted}. */
  public StaleSamplerException(long held, long wanted) {
    super("sampler holds weights v" + held + " but the pool is at v" + wanted);
  }
}
