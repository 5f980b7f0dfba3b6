package dev.javelin.recipes.jobs;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Objects;

/** Uploads a plan's packages that the cluster lacks, then submits it. */
public final class JobSubmitter {
  private final JobsClient client;
  private final PrintStream err;

  public JobSubmitter(JobsClient client, PrintStream err) {
    this.client = Objects.requireNonNull(client, "client");
    this.err = Objects.requireNonNull(err, "err");
  }

  /** Makes sure every package of the plan is on the cluster. */
  public void upload(JobPlan plan) {
    for (JobPackage p : plan.bundle().all()) {
      long t0 = System.nanoTime();
      if (client.uploadIfMissing(p)) {
        err.printf(
            Locale.ROOT, "javelin: uploaded %s in %.1f s%n", p, (System.nanoTime() - t0) / 1e9);
      } else {
        err.println("javelin: the cluster already has " + p);
      }
    }
  }

  /** Uploads what is missing and submits; returns the submission id. */
  public String submit(JobPlan plan) {
    upload(plan);
    return client.submit(plan.submission());
  }
}
