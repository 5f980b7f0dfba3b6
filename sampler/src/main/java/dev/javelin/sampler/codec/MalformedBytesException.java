package dev.javelin.sampler.codec;

/** Bytes that are not a well-formed sampler message: truncated, wrong magic, bad values. */
public final class MalformedBytesException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public MalformedBytesException(String message) {
    super(message);
  }

  public MalformedBytesException(String message, Throwable cause) {
    super(message, cause);
  }
}
