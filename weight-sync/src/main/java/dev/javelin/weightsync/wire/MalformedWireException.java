package dev.javelin.weightsync.wire;

/** Bytes from another process that do not decode: truncated, oversized, or of the wrong format. */
public final class MalformedWireException extends IllegalArgumentException {
  public MalformedWireException(String message) {
    super(message);
  }

  public MalformedWireException(String message, Throwable cause) {
    super(message, cause);
  }
}
