package dev.javelin.recipes.ray;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.grpo.MetricNames;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.TrainerSection.RayMode;
import dev.javelin.recipes.driver.GrpoDriver;
import dev.javelin.recipes.driver.RunSummary;
import dev.javelin.recipes.driver.StepListener;
import dev.javelin.recipes.driver.StopSignal;
import dev.javelin.recipes.metrics.HeldOut;
import io.ray.api.ActorHandle;
import io.ray.api.Ray;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.logging.Logger;

/**
 * Tells the {@link RunRegistry} each logged step of a cluster-mode run, and how the run ended. In
 * local mode (or without Ray) it does nothing: there is no cluster for {@code status} to ask. Calls
 * are fire-and-forget; a registry that cannot be reached never slows or stops the run.
 */
public final class RunRegistryReporter implements StepListener {
  private static final Logger LOG = Logger.getLogger(RunRegistryReporter.class.getName());
  private final Sink sink;
  private final String runId;
  private final String experiment;
  private final String job;
  private final LongSupplier clock;
  private long firstMillis = -1;
  private int firstStep;
  private double accuracy = Double.NaN;
  private RunRegistryProgress last;

  /** Where reports go: the actor, or a test's list. */
  @FunctionalInterface
  interface Sink {
    void report(String runId, String json);
  }

  RunRegistryReporter(Sink sink, String runId, String experiment, String job, LongSupplier clock) {
    this.sink = sink;
    this.runId = runId;
    this.experiment = experiment;
    this.job = job;
    this.clock = clock;
  }

  /** A reporter for this run: live in a cluster-mode driver, a no-op otherwise. */
  public static RunRegistryReporter forRun(RecipeConfig recipe) {
    String experiment = recipe.trainer().experimentName();
    String runId = runId(experiment, ProcessHandle.current().pid(), System.currentTimeMillis());
    if (recipe.trainer().ray() != RayMode.CLUSTER
        || !Ray.isInitialized()
        || RayRuntime.localMode()) {
      return new RunRegistryReporter(null, runId, experiment, "", System::currentTimeMillis);
    }
    try {
      ActorHandle<RunRegistry> registry = RunRegistry.findOrCreate();
      Sink sink = (id, json) -> registry.task(RunRegistry::report, id, json).remote();
      return new RunRegistryReporter(
          sink, runId, experiment, submissionId(), System::currentTimeMillis);
    } catch (RuntimeException e) {
      LOG.warning("no run registry (javelin status will not show this run): " + e);
      return new RunRegistryReporter(null, runId, experiment, "", System::currentTimeMillis);
    }
  }

  @Override
  public void onStep(int step, int totalSteps, Map<String, Double> m) {
    long now = clock.getAsLong();
    if (firstMillis < 0) {
      firstMillis = now;
      firstStep = step;
    }
    double acc = HeldOut.accuracy(m);
    if (!Double.isNaN(acc)) {
      accuracy = acc;
    }
    double perStep =
        step > firstStep
            ? (now - firstMillis) / 1000.0 / (step - firstStep)
            : m.getOrDefault(MetricNames.STEP_SECONDS, Double.NaN);
    last =
        new RunRegistryProgress(
            runId,
            experiment,
            job,
            "running",
            step,
            totalSteps,
            m.getOrDefault(MetricNames.SCORE_MEAN, Double.NaN),
            accuracy,
            m.getOrDefault(MetricNames.THROUGHPUT, Double.NaN),
            perStep,
            perStep * (totalSteps - step),
            now);
    send(last);
  }

  /** Runs {@code driver} with this reporter attached, and reports how the run ended. */
  public RunSummary run(GrpoDriver driver, StopSignal stop) {
    driver.addListener(this);
    RunSummary summary;
    try {
      summary = driver.run(stop);
    } catch (RuntimeException | Error e) {
      ended("failed");
      throw e;
    }
    ended(summary.stopped() ? "stopped" : "finished");
    return summary;
  }

  /** Reports the end of the run: {@code finished}, {@code stopped} or {@code failed}. */
  public void ended(String state) {
    if (last != null) {
      send(last.withState(state, clock.getAsLong()));
    }
  }

  /** This run's id in the registry. */
  public String runId() {
    return runId;
  }

  private void send(RunRegistryProgress p) {
    if (sink == null) {
      return;
    }
    try {
      sink.report(runId, p.toJson());
    } catch (RuntimeException e) {
      LOG.warning("run registry report failed: " + e);
    }
  }

  static String runId(String experiment, long pid, long startMillis) {
    String host = System.getenv("HOSTNAME");
    if (host == null || host.isBlank()) {
      try {
        host = java.net.InetAddress.getLocalHost().getHostName();
      } catch (java.net.UnknownHostException e) {
        host = "host";
      }
    }
    String safe = (experiment + "@" + host).replaceAll("[^A-Za-z0-9_.@-]", "_");
    return safe + ":" + pid + "-" + Long.toString(startMillis, 36);
  }

  /** The Ray job's submission id when this driver runs as a submitted job, else empty. */
  static String submissionId() {
    String env = System.getenv("RAY_JOB_CONFIG_JSON_ENV_VAR");
    if (env == null || env.length() > 1 << 20) {
      return "";
    }
    try {
      JsonNode id = new ObjectMapper().readTree(env).path("metadata").path("job_submission_id");
      return id.isTextual() ? id.asText() : "";
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      return "";
    }
  }
}
