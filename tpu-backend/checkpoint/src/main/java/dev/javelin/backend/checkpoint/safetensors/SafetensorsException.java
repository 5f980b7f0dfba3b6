package dev.javelin.backend.checkpoint.safetensors;

/** A malformed or unreadable safetensors file or checkpoint directory. */
public class SafetensorsException extends RuntimeException {
  public SafetensorsException(String message) {
    super(message);
  }

  public SafetensorsException(String message, Throwable cause) {
    super(message, cause);
  }
}
