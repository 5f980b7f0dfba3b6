package dev.javelin.recipes.jobs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A job ready to submit: its bundle, the CLI arguments the launcher passes to {@code
 * dev.javelin.recipes.cli.Main} inside the job, and the entrypoint's environment.
 *
 * @param bundle the packages
 * @param cliArgs e.g. {@code run recipe/my.yaml trainer.ray=cluster k=v}; the arguments of the
 *     user's main class for a {@link UserMainJob}
 * @param envVars extra environment (heap sizes); the launcher's {@code JAVELIN_JOB_JARS} is added
 * @param metadata labels shown by {@code jobs list}
 */
public record JobPlan(
    JobBundle bundle,
    List<String> cliArgs,
    Map<String, String> envVars,
    Map<String, String> metadata) {
  /** Seconds a stopped job has to save its checkpoint before Ray kills it. */
  public static final int STOP_GRACE_S = 900;

  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./=:,@+%-]+");

  /** Validates. */
  public JobPlan {
    Objects.requireNonNull(bundle, "bundle");
    cliArgs = List.copyOf(cliArgs);
    if (cliArgs.isEmpty() && !envVars.containsKey(UserMainJob.MAIN_ENV)) {
      throw new IllegalArgumentException("cliArgs: empty");
    }
    envVars = Map.copyOf(envVars);
    metadata = Map.copyOf(metadata);
  }

  /** {@code sh bin/javelin-job.sh <args>}, each argument quoted for the shell when it needs it. */
  public String entrypoint() {
    List<String> words = new ArrayList<>(List.of("sh", LauncherScript.PATH));
    cliArgs.forEach(a -> words.add(shellQuote(a)));
    return String.join(" ", words);
  }

  /** The request body of {@code POST /api/jobs/}. */
  public JobSubmission submission() {
    Map<String, String> env = new LinkedHashMap<>(envVars);
    env.put("JAVELIN_JOB_JARS", bundle.jarFolders());
    // `jobs stop` sends SIGTERM, then SIGKILL after this many seconds (Ray's default is 3): time
    // for the run to finish its step and write its checkpoint, as Ctrl-C does.
    env.putIfAbsent("RAY_JOB_STOP_WAIT_TIME_S", String.valueOf(STOP_GRACE_S));
    return new JobSubmission(
        entrypoint(),
        bundle.workingDir().uri(),
        bundle.jars().stream().map(JobPackage::uri).toList(),
        env,
        metadata);
  }

  /**
   * The same submission with Ray's CLI, once the packages are uploaded (gcs:// URIs are resolved by
   * the cluster, so {@code ray job submit} uploads nothing).
   */
  public String rayJobSubmitCommand(String dashboard) {
    String env = BoundedJson.write(submission().runtimeEnvJson());
    return "ray job submit --address "
        + shellQuote(dashboard)
        + " --runtime-env-json "
        + shellQuote(env)
        + " -- "
        + entrypoint();
  }

  static String shellQuote(String s) {
    return PLAIN.matcher(s).matches() ? s : "'" + s.replace("'", "'\\''") + "'";
  }
}
