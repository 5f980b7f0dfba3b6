package dev.javelin.backend.distributed;

/**
 * A coordination store or gang operation that could not complete: a peer that never posted its key
 * in time, a store that closed, or a malformed frame. The message names the key and, where known,
 * the rank.
 */
public final class CoordinationException extends RuntimeException {
  public CoordinationException(String message) {
    super(message);
  }

  public CoordinationException(String message, Throwable cause) {
    super(message, cause);
  }
}
