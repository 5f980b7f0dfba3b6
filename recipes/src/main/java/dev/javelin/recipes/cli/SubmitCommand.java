package dev.javelin.recipes.cli;

import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.recipes.config.TrainerSection;
import dev.javelin.recipes.config.TrainerSection.RayMode;
import dev.javelin.recipes.jobs.JobBundle;
import dev.javelin.recipes.jobs.JobFollower;
import dev.javelin.recipes.jobs.JobInfo;
import dev.javelin.recipes.jobs.JobPlan;
import dev.javelin.recipes.jobs.JobStatus;
import dev.javelin.recipes.jobs.JobSubmitter;
import dev.javelin.recipes.jobs.JobsClient;
import dev.javelin.recipes.jobs.UserMainJob;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code javelin submit [--address URL] [--no-wait] [--print-ray-command] <recipe> [key=value
 * ...]}: checks the recipe here, uploads this JVM's class path and the recipe as the job's runtime
 * env, submits {@code javelin run <recipe> trainer.ray=cluster ...} as a Ray job, and follows it.
 * With {@code --jar my-job.jar --main com.me.MyJob [args]} the job runs the user's main class as
 * its driver instead ({@link UserMainJob}).
 */
final class SubmitCommand {
  static final String DEFAULT_DASHBOARD = "http://127.0.0.1:8265";

  /** Environment passed on to the job when set here. */
  private static final List<String> PASSED_ENV = List.of("JAVELIN_HEAP", "JAVELIN_WORKER_HEAP");

  private final PrintStream out;
  private final PrintStream err;

  SubmitCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  int run(CliOptions options) {
    String address = options.option("--address", DEFAULT_DASHBOARD);
    boolean noWait = options.flag("--no-wait");
    boolean printRay = options.flag("--print-ray-command");
    String jar = options.option("--jar", null);
    String mainClass = options.option("--main", null);
    List<String> args =
        options.positional(
            "--address URL, --no-wait, --print-ray-command, --samplers N, --device SPEC,"
                + " --jar JAR --main CLASS",
            "--samplers",
            "--device");
    if ((jar == null) != (mainClass == null)) {
      throw new ConfigException(
          "submit: --jar and --main go together, e.g. javelin submit --jar my-job.jar --main"
              + " com.me.MyJob");
    }
    if (jar == null && args.isEmpty()) {
      throw new ConfigException(
          "submit needs a recipe, e.g. javelin submit recipes/arith-grpo.yaml");
    }
    JobsClient client = JobsCommand.client(address);
    long t0 = System.nanoTime();
    JobPlan plan;
    if (jar != null) {
      plan = UserMainJob.plan(Path.of(jar), mainClass, args, passedEnv());
      err.println("javelin: Ray " + client.rayVersion() + " at " + client.base());
    } else {
      List<String> overrides =
          clusterOverrides(args.get(0), Main.overrides(args.subList(1, args.size())));
      err.println("javelin: Ray " + client.rayVersion() + " at " + client.base());
      plan = plan(args.get(0), overrides);
    }
    err.printf(
        Locale.ROOT,
        "javelin: packaged the class path as %d packages (%.1f MiB) in %.1f s%n",
        plan.bundle().all().size(),
        plan.bundle().all().stream().mapToLong(p -> p.zip().length).sum() / 1048576.0,
        (System.nanoTime() - t0) / 1e9);
    JobSubmitter submitter = new JobSubmitter(client, err);
    if (printRay) {
      submitter.upload(plan);
      out.println(plan.rayJobSubmitCommand(client.base().toString()));
      return 0;
    }
    t0 = System.nanoTime();
    String id = submitter.submit(plan);
    err.printf(
        Locale.ROOT,
        "javelin: submitted job %s in %.1f s (logs: javelin jobs logs %s; stop: javelin jobs stop %s)%n",
        id,
        (System.nanoTime() - t0) / 1e9,
        id,
        id);
    if (noWait) {
      out.println(id);
      return 0;
    }
    return follow(client, id);
  }

  /** Follows the job to its end; exit code 0 when it succeeded. */
  private int follow(JobsClient client, String id) {
    // Ctrl-C ends this JVM, not the job: say so, and how to stop it.
    Runnable hint =
        () ->
            err.println(
                "javelin: stopped following; job "
                    + id
                    + " keeps running (javelin jobs stop "
                    + id
                    + ")");
    Thread hook = new Thread(hint);
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      JobInfo end = JobFollower.everySecond(client, out, err).follow(id);
      return end.status() == JobStatus.SUCCEEDED ? 0 : Main.FAILED;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      hint.run();
      return Main.FAILED;
    } finally {
      removeHook(hook);
    }
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // already shutting down: the hook runs
    }
  }

  /**
   * {@code trainer.ray=cluster} and the user's overrides, checked here against the recipe, so a
   * typo fails before anything is uploaded.
   */
  static List<String> clusterOverrides(String recipeArg, List<String> overrides) {
    List<String> all = new ArrayList<>();
    all.add(TrainerSection.RAY.assign(RayMode.CLUSTER.key()));
    all.addAll(overrides);
    Recipes.load(recipeArg, all).checkTrainable();
    return all;
  }

  /** The job's environment: the submitter's directory and the heap sizes set here. */
  private static Map<String, String> passedEnv() {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("JAVELIN_JOB_CWD", Path.of("").toAbsolutePath().toString());
    for (String name : PASSED_ENV) {
      String v = System.getenv(name);
      if (v != null && !v.isBlank()) {
        env.put(name, v);
      }
    }
    return env;
  }

  /** The job: this JVM's class path and the recipe, running {@code javelin run}. */
  static JobPlan plan(String recipeArg, List<String> checkedOverrides) {
    RecipeConfig recipe = Recipes.load(recipeArg, checkedOverrides);
    JobBundle bundle = JobBundle.ofThisJvm(recipeArg, recipe.reward());
    List<String> cli = new ArrayList<>(List.of("run", bundle.recipeInJob()));
    cli.addAll(checkedOverrides);
    if (recipe.reward().path() != null) {
      // The reward's code travels in the bundle (on the job's class path); the local path does not.
      cli.add(RecipeConfig.REWARD_PATH.assign(""));
    }
    Map<String, String> env = passedEnv();
    Map<String, String> meta = new LinkedHashMap<>();
    meta.put("javelin_recipe", recipeArg);
    meta.put("javelin_experiment", recipe.trainer().experimentName());
    return new JobPlan(bundle, cli, env, meta);
  }
}
