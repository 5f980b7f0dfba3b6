package dev.javelin.recipes.jobs;

import java.util.Locale;

/** A Ray job's status, as the Jobs API reports it ({@code ray.job_submission.JobStatus}). */
public enum JobStatus {
  /** Waiting for its runtime env (package download) or resources. */
  PENDING,
  /** The entrypoint runs. */
  RUNNING,
  /** Stopped on request ({@code jobs stop}). */
  STOPPED,
  /** The entrypoint exited 0. */
  SUCCEEDED,
  /** The entrypoint exited non-zero, or its runtime env could not be set up. */
  FAILED;

  /** Whether the job can no longer change status. */
  public boolean terminal() {
    return this == STOPPED || this == SUCCEEDED || this == FAILED;
  }

  /** Parses the API's spelling; names the bad value. */
  public static JobStatus parse(String s) {
    try {
      return valueOf(s.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new JobsApiException("unknown job status '" + s + "'", e);
    }
  }
}
