package dev.javelin.recipes.ray;

/**
 * A sampler's result that the driver must not use: undecodable bytes or rollouts that do not match
 * the requests, the vocabulary or the rules of a log-probability. The pool counts it and generates
 * the chunk again.
 */
public final class MalformedRolloutException extends RuntimeException {
  MalformedRolloutException(String message) {
    super(message);
  }

  MalformedRolloutException(String message, Throwable cause) {
    super(message, cause);
  }
}
