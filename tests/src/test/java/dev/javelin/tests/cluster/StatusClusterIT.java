package dev.javelin.tests.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.javelin.tests.cluster.JobSubmitClusterIT.Cli;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code javelin status} shows a submitted job's live step from the {@code javelin-runs} registry
 * actor, and {@code javelin jobs stop} ends the job as STOPPED, which the registry then reports.
 */
class StatusClusterIT {

  @Test
  void statusShowsARunningJobsStepAndStopEndsIt(@TempDir Path dir) throws InterruptedException {
    long t0 = System.nanoTime();
    Cli submitted = JobSubmitClusterIT.javelin(JobSubmitClusterIT.submit(dir, 5000, "--no-wait"));
    assertEquals(0, submitted.code(), submitted.all());
    String id = submitted.out().strip();
    assertEquals(JobSubmitClusterIT.submittedId(submitted), id);

    String row = awaitRow(id, r -> r.contains(" running ") && !r.contains(" 0/5000 "), 90);
    System.out.printf(
        "submit -> first step visible in javelin status: %.1f s%n", (System.nanoTime() - t0) / 1e9);
    assertTrue(row.matches(".*\\s\\d+/5000\\s.*"), "step/total in: " + row);
    assertTrue(row.contains("ago"), row);

    Cli stop =
        JobSubmitClusterIT.javelin(
            List.of("jobs", "stop", id, "--address", ClusterRuns.dashboard()));
    assertEquals(0, stop.code(), stop.all());
    assertTrue(stop.out().contains("job " + id + " is STOPPED"), stop.all());
    // The driver catches SIGTERM, finishes its step and reports the end before Ray's grace ends.
    awaitRow(id, r -> r.contains(" stopped "), 30);
  }

  /** Polls {@code javelin status} until the row of job {@code id} matches. */
  private static String awaitRow(String id, Predicate<String> ok, int seconds)
      throws InterruptedException {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    String last = "";
    while (System.nanoTime() < deadline) {
      Cli status =
          JobSubmitClusterIT.javelin(List.of("status", "--address", ClusterRuns.address()));
      assertEquals(0, status.code(), status.all());
      last = status.out();
      Optional<String> row = last.lines().filter(l -> l.contains(" " + id + " ")).findFirst();
      if (row.isPresent() && ok.test(row.get())) {
        return row.get();
      }
      Thread.sleep(1000);
    }
    return fail("no matching status row for " + id + " within " + seconds + " s:\n" + last);
  }
}
