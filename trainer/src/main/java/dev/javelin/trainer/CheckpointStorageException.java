package dev.javelin.trainer;

/**
 * A checkpoint that could not be written (unwritable directory, full disk), or a run directory with
 * no complete checkpoint left to resume from. The message is one line naming the path and what to
 * do; nothing the run had saved before was changed.
 */
public final class CheckpointStorageException extends RuntimeException {
  public CheckpointStorageException(String message, Throwable cause) {
    super(message, cause);
  }

  public CheckpointStorageException(String message) {
    super(message);
  }
}
