package dev.javelin.recipes.metrics;

/**
 * A file the run writes could not be written (a full disk, a read-only or vanished directory). Its
 * message is one line naming the file and the reason; what was half-written has been taken back and
 * the checkpoints already made are kept, so the run can resume once there is room.
 */
public final class RunWriteException extends RuntimeException {
  public RunWriteException(String message, Throwable cause) {
    super(message, cause);
  }
}
