package dev.javelin.recipes.cli;

import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.recipes.driver.GrpoDriver;
import dev.javelin.recipes.driver.MemoryBudget;
import dev.javelin.recipes.driver.ModelInit;
import dev.javelin.recipes.driver.RequestFactory;
import dev.javelin.recipes.driver.ResumeCheck;
import dev.javelin.recipes.driver.RunCheckpoints;
import dev.javelin.recipes.driver.RunParts;
import dev.javelin.recipes.driver.RunSummary;
import dev.javelin.recipes.driver.Scoring;
import dev.javelin.recipes.driver.SftRunner;
import dev.javelin.recipes.driver.StepListener;
import dev.javelin.recipes.driver.StopSignal;
import dev.javelin.recipes.driver.Validator;
import dev.javelin.recipes.metrics.ConsoleProgress;
import dev.javelin.recipes.metrics.MetricsJsonl;
import dev.javelin.recipes.metrics.MetricsLoggers;
import dev.javelin.recipes.ray.RunRegistryReporter;
import dev.javelin.recipes.ray.Workers;
import dev.javelin.recipes.report.RunReport;
import dev.javelin.recipes.task.TaskData;
import dev.javelin.recipes.task.TaskLoader;
import dev.javelin.trainer.Checkpointer;
import dev.javelin.trainer.ResumeMode;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The local commands, each a straight line: load recipe → data → workers → loop → summary. */
public final class Commands {
  private final PrintStream out;
  private final Map<String, String> env;

  public Commands(PrintStream out) {
    this(out, System.getenv());
  }

  /**
   * With {@code env} in place of the process environment (MLFLOW_TRACKING_URI, TENSORBOARD_DIR).
   */
  public Commands(PrintStream out, Map<String, String> env) {
    this.out = out;
    this.env = Map.copyOf(env);
  }

  /** {@code javelin run}: GRPO, after the recipe's warm-up when its checkpoint is missing. */
  public RunSummary run(String recipeArg, List<String> overrides) {
    RecipeConfig recipe = Recipes.load(recipeArg, overrides);
    recipe.settings().noEffectNotes().forEach(out::println);
    recipe.checkTrainable();
    PlanCommand.beforeRun(recipe, env, out);
    Optional<RunSummary> interruptedWarmUp = warmUpIfNeeded(recipe, overrides);
    if (interruptedWarmUp.isPresent()) {
      return interruptedWarmUp.get(); // Ctrl-C during the warm-up ends the command there
    }
    TaskData task = TaskLoader.load(recipe);
    int total = totalSteps(recipe, task, "prompts", " (see the warnings above for skipped rows)");
    RunCheckpoints.refuseToOverwrite(recipe);
    ResumeCheck.refuseForeignModel(recipe);
    Path dir = prepareRunDir(recipe);
    out.printf(
        Locale.ROOT,
        "javelin run %s: %d train / %d val prompts, %d steps, %d samplers, run dir %s%n",
        recipeArg,
        task.train().size(),
        task.val().size(),
        total,
        recipe.trainer().samplers(),
        dir);
    return loop(
        recipe,
        task,
        total,
        dir,
        0,
        (parts, stop, toLoggers) -> {
          GrpoDriver driver = new GrpoDriver(parts).addListener(toLoggers);
          try {
            return RunRegistryReporter.forRun(recipe).run(driver, stop);
          } finally {
            writeReport(dir); // also for a failed run: its curves up to the failure
          }
        });
  }

  private static MetricsLoggers.Run loggerRun(
      RecipeConfig recipe, Path dir, Map<String, String> env) {
    Map<String, String> params = new TreeMap<>();
    recipe.settings().asMap().forEach((k, v) -> params.put(k, String.valueOf(v)));
    return new MetricsLoggers.Run(
        dir, recipe.trainer().projectName(), recipe.trainer().experimentName(), params, env);
  }

  /** Writes the run's report.html; a failure to write it is reported, never thrown. */
  private void writeReport(Path dir) {
    try {
      out.println("report: " + RunReport.write(dir).toAbsolutePath());
    } catch (IOException | UncheckedIOException e) {
      out.println("report: could not write " + dir.resolve("report.html") + " (" + e + ")");
    }
  }

  /** {@code javelin report <run dir>}: (re)writes the run's report.html. */
  public Path report(String runDir) {
    Path dir = Path.of(runDir);
    if (!Files.isRegularFile(dir.resolve("metrics.jsonl"))) {
      throw new ConfigException(
          "report: "
              + dir
              + " has no metrics.jsonl; pass a run directory (trainer.default_local_dir)");
    }
    try {
      Path report = RunReport.write(dir);
      out.println("report: " + report.toAbsolutePath());
      return report;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + dir.resolve("report.html"), e);
    }
  }

  /** {@code javelin sft}: the cross-entropy warm-up. */
  public RunSummary sft(String recipeArg, List<String> overrides) {
    RecipeConfig recipe = Recipes.load(recipeArg, overrides);
    TaskData task = TaskLoader.load(recipe);
    int total = totalSteps(recipe, task, "examples", "");
    Path dir = prepareRunDir(recipe);
    out.printf(
        Locale.ROOT,
        "javelin sft %s: %d examples, %d steps, model -> %s%n",
        recipeArg,
        task.train().size(),
        total,
        SftRunner.outputDir(recipe));
    return loop(
        recipe,
        task,
        total,
        dir,
        1,
        (parts, stop, toLoggers) -> new SftRunner(parts).addListener(toLoggers).run(stop));
  }

  /**
   * A training loop over the pieces {@link #loop} opens for it; {@code toLoggers} passes every
   * logged step to the recipe's trainer.logger backends.
   */
  private interface Loop {
    RunSummary run(RunParts parts, StopSignal stop, StepListener toLoggers);
  }

  /**
   * Opens scoring, workers, metrics.jsonl and the trainer.logger backends, runs {@code body} with a
   * progress bar counting from {@code firstStep}, prints its summary. The backends are finished as
   * failed when {@code body} throws.
   */
  private RunSummary loop(
      RecipeConfig recipe, TaskData task, int total, Path dir, int firstStep, Loop body) {
    checkMemory(recipe, MemoryBudget.of(ModelInit.config(recipe), recipe));
    StopSignal stop = StopSignal.onInterrupt();
    try (Scoring scoring = new Scoring(recipe, task.tokenizer()); // reward errors before workers
        Workers workers = Workers.start(recipe, total);
        MetricsJsonl metrics = new MetricsJsonl(dir.resolve("metrics.jsonl"))) {
      // Written once the reward, data and workers are up: a run that fails at start-up leaves
      // the previous attempt's recipe.yaml alone (each checkpoint also keeps its own copy).
      writeRecipe(recipe, dir);
      RunParts parts =
          new RunParts(
              recipe,
              task,
              workers.trainer(),
              workers.samplers(),
              scoring,
              metrics,
              ConsoleProgress.stdout(firstStep));
      RunSummary summary;
      try (MetricsLoggers loggers =
          MetricsLoggers.open(recipe.trainer().loggers(), loggerRun(recipe, dir, env), out)) {
        summary = body.run(parts, stop, (step, steps, m) -> loggers.log(step, m));
        loggers.finish(false);
      }
      out.println(summary.render());
      return summary;
    } finally {
      stop.finished();
    }
  }

  /**
   * Prints the memory estimate and, when everything runs in this JVM, refuses a heap it does not
   * fit before any worker starts (naming JAVELIN_HEAP).
   */
  private void checkMemory(RecipeConfig recipe, MemoryBudget budget) {
    out.println(budget.describe());
    if (!recipe.trainer().ray().equals("cluster")) {
      budget.check(Runtime.getRuntime().maxMemory());
    }
  }

  /** The run's steps; fails when the task has fewer usable rows than one batch. */
  private static int totalSteps(RecipeConfig recipe, TaskData task, String rows, String hint) {
    int batch = recipe.data().trainBatchSize();
    if (task.train().size() < batch) {
      throw new ConfigException(
          "recipe key 'data.train_batch_size': only "
              + task.train().size()
              + " usable training "
              + rows
              + " for batches of "
              + batch
              + hint);
    }
    return recipe.totalSteps(task.train().size() / batch);
  }

  /** {@code javelin eval}: validation of a recipe's model, or of a checkpoint directory. */
  public Map<String, Double> eval(String target, List<String> overrides) {
    RecipeConfig recipe = evalRecipe(target, overrides);
    TaskData task = TaskLoader.load(recipe);
    if (task.val().isEmpty()) {
      throw new ConfigException("recipe key 'data.val_files': eval needs validation prompts");
    }
    out.printf(Locale.ROOT, "javelin eval %s: %d prompts%n", target, task.val().size());
    checkMemory(recipe, MemoryBudget.forEval(ModelInit.config(recipe), recipe, task.val().size()));
    boolean cluster = recipe.trainer().ray().equals("cluster");
    try (Scoring scoring = new Scoring(recipe, task.tokenizer());
        Workers workers = cluster ? Workers.start(recipe, 1) : Workers.startSamplers(recipe)) {
      // in this JVM the weights go from the checkpoint straight to the samplers: no trainer
      workers
          .samplers()
          .loadWeights(
              cluster
                  ? workers.trainer().snapshot(0, recipe.rollout().weightDtype())
                  : ModelInit.initialSnapshot(recipe));
      Validator v =
          new Validator(
              workers.samplers(),
              scoring,
              new RequestFactory(recipe.trainer().seed()),
              recipe,
              task.val(),
              task.stopTokenIds());
      Path dir = EvalReport.dirFor(target, recipe);
      v.logSamplesTo(dir.resolve(EvalReport.GENERATIONS), task.val().size());
      long t0 = System.nanoTime();
      Map<String, Double> m = new TreeMap<>(v.run(0));
      double seconds = (System.nanoTime() - t0) / 1e9;
      m.forEach((k, val) -> out.printf(Locale.ROOT, "%s = %.4f%n", k, val));
      Path written =
          new EvalReport(target, recipe.model().path(), m, seconds, v.lastTokens(), v.lastSamples())
              .print(out)
              .write(dir);
      out.println("eval report: " + written.toAbsolutePath());
      return m;
    }
  }

  /** The recipe {@code javelin eval target} runs: {@code target}'s own when it is a checkpoint. */
  RecipeConfig evalRecipe(String target, List<String> overrides) {
    Path p = Path.of(target);
    if (!Files.isDirectory(p)) {
      return Recipes.load(target, overrides);
    }
    Optional<Path> latest = latestCheckpoint(p);
    if (latest.isPresent()) {
      out.println("javelin eval: " + p + " is a run directory; evaluating " + latest.get());
      p = latest.get();
    }
    Path recipe = p.resolve("recipe.yaml");
    Path parent = p.toAbsolutePath().getParent();
    if (!Files.isRegularFile(recipe) && parent != null) {
      recipe = parent.resolve("recipe.yaml");
    }
    if (!Files.isRegularFile(recipe)) {
      throw new ConfigException(
          "eval: "
              + p
              + " is a directory without a recipe.yaml here or in its parent;"
              + " pass a recipe with actor_rollout_ref.model.path="
              + p
              + " instead");
    }
    List<String> all = new ArrayList<>(overrides);
    all.add(0, "actor_rollout_ref.model.path=" + p);
    all.add(0, "actor_rollout_ref.model.warmup_recipe=");
    return Recipes.load(recipe.toString(), all);
  }

  /** The newest {@code global_step_N} of a run directory (none for a checkpoint or model dir). */
  private static Optional<Path> latestCheckpoint(Path dir) {
    if (Files.isRegularFile(dir.resolve("config.json"))) {
      return Optional.empty();
    }
    return new Checkpointer(dir, 0).resolve(new ResumeMode.Auto());
  }

  /**
   * Runs the recipe's warm-up when its model is missing; returns the warm-up's summary when Ctrl-C
   * stopped it, having moved its half-trained model aside so the next run warms up again.
   */
  private Optional<RunSummary> warmUpIfNeeded(RecipeConfig recipe, List<String> overrides) {
    if (!needsWarmUp(recipe)) {
      return Optional.empty();
    }
    String path = recipe.model().path();
    String warmup = recipe.model().warmupRecipe();
    out.println("no checkpoint at " + path + ": running the warm-up recipe " + warmup + " first");
    List<String> carried = new ArrayList<>();
    for (String o : overrides) {
      if (o.startsWith("trainer.samplers=")
          || o.startsWith("trainer.device=")
          || o.startsWith("trainer.ray=")
          || o.startsWith("trainer.ray_address=")
          || o.startsWith("trainer.max_restarts=")) {
        carried.add(o);
      }
    }
    carried.add("sft.output_dir=" + path);
    RunSummary sft = sft(warmup, carried);
    if (!sft.stopped()) {
      return Optional.empty();
    }
    Path model = Path.of(path);
    Path aside =
        model.resolveSibling(model.getFileName() + ".interrupted-" + System.currentTimeMillis());
    try {
      if (Files.exists(model)) {
        Files.move(model, aside);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot move the interrupted warm-up's model " + model, e);
    }
    out.println(
        "the warm-up was interrupted at step "
            + sft.lastStep()
            + ": its model is kept at "
            + aside
            + " and not used; run the same command again to warm up from the start");
    return Optional.of(sft);
  }

  /**
   * Whether {@code run} starts with the recipe's warm-up: it names one and its model is missing.
   */
  static boolean needsWarmUp(RecipeConfig recipe) {
    String path = recipe.model().path();
    return path != null
        && recipe.model().warmupRecipe() != null
        && !Files.isRegularFile(Path.of(path, "config.json"));
  }

  private static Path prepareRunDir(RecipeConfig recipe) {
    Path dir = recipe.trainer().defaultLocalDir();
    new Checkpointer(dir, 0).requireWritable(); // creates it; one line naming it when it cannot
    return dir;
  }

  private static void writeRecipe(RecipeConfig recipe, Path dir) {
    try {
      Files.writeString(dir.resolve("recipe.yaml"), Recipes.toYaml(recipe.settings()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + dir.resolve("recipe.yaml"), e);
    }
  }
}
