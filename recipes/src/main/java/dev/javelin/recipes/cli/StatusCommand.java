package dev.javelin.recipes.cli;

import dev.javelin.recipes.jobs.JobsApiException;
import dev.javelin.recipes.metrics.ConsoleProgress;
import dev.javelin.recipes.ray.RayRuntime;
import dev.javelin.recipes.ray.RunRegistry;
import dev.javelin.recipes.ray.RunRegistryProgress;
import io.ray.api.ActorHandle;
import io.ray.api.ObjectRef;
import io.ray.api.Ray;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code javelin status [--address HOST:PORT]}: connects to the cluster as a driver and prints what
 * the {@link RunRegistry} actor holds: step, reward, accuracy, throughput and ETA of each run.
 */
final class StatusCommand {
  private static final long TIMEOUT_MS = 30_000;

  /**
   * Without a report for this long, a "running" run is shown as silent (its driver may be gone).
   */
  private static final long SILENT_MS = 5 * 60_000;

  private final PrintStream out;

  StatusCommand(PrintStream out) {
    this.out = out;
  }

  int run(CliOptions options) {
    String env = System.getenv("RAY_ADDRESS");
    String address =
        options.option("--address", env == null || env.isBlank() ? "127.0.0.1:6379" : env);
    options.positional("--address HOST:PORT");
    RayRuntime.connectDriver(address); // exit 3 at once when no head answers
    Optional<ActorHandle<RunRegistry>> registry = RunRegistry.find();
    if (registry.isEmpty()) {
      out.println("no runs reported on " + address + " (no " + RunRegistry.NAME + " actor yet)");
      return 0;
    }
    List<String> reports;
    try {
      ObjectRef<String> ref = registry.get().task(RunRegistry::reports).remote();
      reports = RunRegistry.lines(Ray.get(ref, TIMEOUT_MS));
    } catch (RuntimeException e) {
      throw new JobsApiException(
          "the " + RunRegistry.NAME + " actor on " + address + " did not answer: " + e, e);
    }
    List<RunRegistryProgress> runs = new ArrayList<>();
    for (String r : reports) {
      try {
        runs.add(RunRegistryProgress.fromJson(r));
      } catch (IllegalArgumentException e) {
        out.println("(skipped a malformed report: " + e.getMessage() + ")");
      }
    }
    print(runs, System.currentTimeMillis());
    return 0;
  }

  void print(List<RunRegistryProgress> runs, long nowMillis) {
    String format = "%-34s %-28s %-9s %9s %7s %6s %8s %7s %7s %s%n";
    out.printf(
        Locale.ROOT,
        format,
        "RUN",
        "JOB",
        "STATE",
        "STEP",
        "REWARD",
        "ACC",
        "TOK/S",
        "S/STEP",
        "ETA",
        "UPDATED");
    for (RunRegistryProgress p : runs) {
      long age = nowMillis - p.updatedMillis();
      boolean silent = p.state().equals("running") && age > SILENT_MS;
      out.printf(
          Locale.ROOT,
          format,
          p.runId(),
          p.job().isEmpty() ? "-" : p.job(),
          silent ? "silent" : p.state(),
          p.step() + "/" + p.totalSteps(),
          number("%.3f", p.reward()),
          Double.isNaN(p.accuracy())
              ? "-"
              : String.format(Locale.ROOT, "%.1f%%", 100 * p.accuracy()),
          number("%.0f", p.tokensPerSecond()),
          number("%.2f", p.secondsPerStep()),
          p.state().equals("running") && !Double.isNaN(p.etaSeconds())
              ? ConsoleProgress.duration(p.etaSeconds())
              : "-",
          ConsoleProgress.duration(age / 1000.0) + " ago");
    }
    if (runs.isEmpty()) {
      out.println("(no runs yet)");
    }
  }

  private static String number(String format, double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, format, v);
  }
}
