package dev.javelin.datasets;

/**
 * A dataset cannot be loaded at all: missing file, missing column, unreadable format. Malformed
 * single rows never throw; they are counted in {@link LoadResult}.
 */
public final class DatasetException extends RuntimeException {
  public DatasetException(String message) {
    super(message);
  }

  public DatasetException(String message, Throwable cause) {
    super(message, cause);
  }
}
