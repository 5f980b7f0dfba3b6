package dev.javelin.recipes.jobs;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Objects;

/**
 * Follows a job until it ends: prints each new piece of its log to {@code out} and each status
 * change to {@code err}, polling {@code GET /api/jobs/{id}} and {@code .../logs}. A few failed
 * polls in a row (a dashboard restart) are tolerated; more end the follow with the last error.
 */
public final class JobFollower {
  /** Waits between polls; a test passes one that does not sleep. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(Duration d) throws InterruptedException;
  }

  static final int MAX_FAILED_POLLS = 10;
  private final JobsClient client;
  private final PrintStream out;
  private final PrintStream err;
  private final Duration poll;
  private final Sleeper sleeper;

  public JobFollower(
      JobsClient client, PrintStream out, PrintStream err, Duration poll, Sleeper sleeper) {
    this.client = Objects.requireNonNull(client, "client");
    this.out = Objects.requireNonNull(out, "out");
    this.err = Objects.requireNonNull(err, "err");
    this.poll = Objects.requireNonNull(poll, "poll");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
  }

  /** A follower that polls every second. */
  public static JobFollower everySecond(JobsClient client, PrintStream out, PrintStream err) {
    return new JobFollower(
        client, out, err, Duration.ofSeconds(1), d -> Thread.sleep(d.toMillis()));
  }

  /**
   * Prints the job's log as it grows until the job ends; returns its final state.
   *
   * @throws InterruptedException when the caller is interrupted (the job keeps running)
   */
  public JobInfo follow(String id) throws InterruptedException {
    int printed = 0;
    JobStatus last = null;
    int failures = 0;
    while (true) {
      JobInfo info;
      String logs;
      try {
        info = client.info(id);
        logs = client.logs(id);
        failures = 0;
      } catch (JobsApiException e) {
        if (e.status() == 404 || ++failures >= MAX_FAILED_POLLS) {
          throw e;
        }
        err.println("javelin: " + e.getMessage() + " (retrying)");
        sleeper.sleep(poll);
        continue;
      }
      if (info.status() != last) {
        last = info.status();
        err.println("javelin: job " + id + " is " + last + message(info));
      }
      printed = printNew(logs, printed);
      if (last.terminal()) {
        // The log can still grow between the status and the logs call: read it once more.
        printNew(client.logs(id), printed);
        return info;
      }
      sleeper.sleep(poll);
    }
  }

  /** Prints what is new in {@code logs}; a log shorter than what was printed is printed anew. */
  private int printNew(String logs, int printed) {
    int from = logs.length() < printed ? 0 : printed;
    if (logs.length() > from) {
      out.print(logs.substring(from));
      out.flush();
    }
    return logs.length();
  }

  private static String message(JobInfo info) {
    return info.message().isBlank() ? "" : ": " + info.message().strip();
  }
}
