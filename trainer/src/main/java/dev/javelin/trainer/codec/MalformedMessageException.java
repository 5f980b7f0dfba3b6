package dev.javelin.trainer.codec;

/** A trainer wire message that is truncated, oversized or otherwise not what it claims to be. */
public final class MalformedMessageException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public MalformedMessageException(String message) {
    super(message);
  }

  public MalformedMessageException(String message, Throwable cause) {
    super(message, cause);
  }
}
