package dev.javelin.backend.xla;

/** A failure reported by a PJRT plugin, carrying its message and its absl status code. */
public final class PjrtException extends RuntimeException {
  /** The absl status code (3 = INVALID_ARGUMENT, 13 = INTERNAL, ...); -1 for binding errors. */
  private final int code;

  public PjrtException(int code, String message) {
    super(code >= 0 ? "PJRT error (code " + code + "): " + message : message);
    this.code = code;
  }

  public int code() {
    return code;
  }
}
