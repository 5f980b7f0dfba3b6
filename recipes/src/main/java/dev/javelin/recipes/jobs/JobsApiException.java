package dev.javelin.recipes.jobs;

/**
 * The dashboard could not be reached, answered an error, or answered something unreadable. The
 * message says which, with the dashboard's own text when it sent one.
 */
public final class JobsApiException extends RuntimeException {
  private final int status;

  /** A failure without an HTTP status (unreachable, timeout, bad JSON). */
  public JobsApiException(String message, Throwable cause) {
    super(message, cause);
    this.status = 0;
  }

  /** An HTTP error answer. */
  public JobsApiException(String message, int status) {
    super(message);
    this.status = status;
  }

  /** The HTTP status of an error answer; 0 when there was none. */
  public int status() {
    return status;
  }
}
