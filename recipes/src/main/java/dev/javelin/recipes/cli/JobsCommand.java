package dev.javelin.recipes.cli;

import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.jobs.JobFollower;
import dev.javelin.recipes.jobs.JobInfo;
import dev.javelin.recipes.jobs.JobStatus;
import dev.javelin.recipes.jobs.JobsClient;
import dev.javelin.recipes.metrics.ConsoleProgress;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * {@code javelin jobs list|logs <id> [--follow]|stop <id> [--address URL]}: the cluster's jobs
 * through the dashboard's Jobs API, for any job (submitted by {@code javelin submit} or not).
 */
final class JobsCommand {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final Duration STOP_WAIT = Duration.ofSeconds(60);
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);
  private final PrintStream out;
  private final PrintStream err;

  JobsCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /** A client for {@code address}; a malformed address is a usage error. */
  static JobsClient client(String address) {
    try {
      return new JobsClient(address, TIMEOUT);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
  }

  int run(CliOptions options) {
    JobsClient client = client(options.option("--address", SubmitCommand.DEFAULT_DASHBOARD));
    boolean follow = options.flag("--follow");
    List<String> args = options.positional("--address URL, logs --follow");
    String sub = args.isEmpty() ? "" : args.get(0);
    return switch (sub) {
      case "list" -> list(client);
      case "logs" -> logs(client, id(args, "logs"), follow);
      case "stop" -> stop(client, id(args, "stop"));
      default ->
          throw new ConfigException(
              "jobs needs list, logs <id> or stop <id>" + (sub.isEmpty() ? "" : ", not " + sub));
    };
  }

  private int list(JobsClient client) {
    List<JobInfo> jobs =
        client.list().stream().sorted(Comparator.comparingLong(JobInfo::startMillis)).toList();
    out.printf(
        Locale.ROOT,
        "%-28s %-10s %-19s %-9s %s%n",
        "JOB",
        "STATUS",
        "STARTED (UTC)",
        "TIME",
        "RECIPE / ENTRYPOINT");
    for (JobInfo j : jobs) {
      long end = j.endMillis() > 0 ? j.endMillis() : System.currentTimeMillis();
      out.printf(
          Locale.ROOT,
          "%-28s %-10s %-19s %-9s %s%n",
          j.id(),
          j.status(),
          j.startMillis() > 0 ? TIME.format(Instant.ofEpochMilli(j.startMillis())) : "-",
          j.startMillis() > 0 ? ConsoleProgress.duration((end - j.startMillis()) / 1000.0) : "-",
          j.metadata().getOrDefault("javelin_recipe", abbreviate(j.entrypoint())));
    }
    if (jobs.isEmpty()) {
      out.println("(no jobs on " + client.base() + ")");
    }
    return 0;
  }

  private int logs(JobsClient client, String id, boolean follow) {
    if (!follow) {
      out.print(client.logs(id));
      out.flush();
      return 0;
    }
    try {
      JobInfo end = JobFollower.everySecond(client, out, err).follow(id);
      return end.status() == JobStatus.SUCCEEDED ? 0 : Main.FAILED;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Main.FAILED;
    }
  }

  /** Asks Ray to stop the job and waits (up to a minute) until it has ended. */
  private int stop(JobsClient client, String id) {
    boolean stopping = client.stop(id);
    long deadline = System.nanoTime() + STOP_WAIT.toNanos();
    JobInfo info = client.info(id);
    while (!info.status().terminal() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      info = client.info(id);
    }
    out.println(
        "job "
            + id
            + " is "
            + info.status()
            + (stopping ? "" : " (it had already ended)")
            + (info.message().isBlank() ? "" : ": " + info.message().strip()));
    return info.status().terminal() ? 0 : Main.FAILED;
  }

  private static String id(List<String> args, String sub) {
    if (args.size() != 2) {
      throw new ConfigException("jobs " + sub + " needs one job id (see javelin jobs list)");
    }
    String id = args.get(1);
    if (!id.matches("[A-Za-z0-9_.-]{1,128}")) {
      throw new ConfigException(
          "jobs " + sub + ": '" + id + "' is not a job id (e.g. raysubmit_Ab12)");
    }
    return id;
  }

  private static String abbreviate(String s) {
    return s.length() <= 60 ? s : s.substring(0, 57) + "...";
  }
}
