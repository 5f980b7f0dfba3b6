package dev.javelin.weightsync;

/** Snapshot bytes that cannot be decoded: truncated, wrong magic, implausible sizes. */
public final class MalformedSnapshotException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public MalformedSnapshotException(String message) {
    super(message);
  }

  public MalformedSnapshotException(String message, Throwable cause) {
    super(message, cause);
  }
}
