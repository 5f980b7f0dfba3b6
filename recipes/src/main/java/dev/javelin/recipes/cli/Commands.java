package dev.javelin.recipes.cli;

import dev.javelin.recipes.api.GrpoRun;
import dev.javelin.recipes.api.RunSpec;
import dev.javelin.recipes.config.CheckpointRecipe;
import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.DataConfig;
import dev.javelin.recipes.config.ModelSection;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.recipes.config.TrainerSection;
import dev.javelin.recipes.config.TrainerSection.RayMode;
import dev.javelin.recipes.driver.MemoryBudget;
import dev.javelin.recipes.driver.ModelInit;
import dev.javelin.recipes.driver.RequestFactory;
import dev.javelin.recipes.driver.RunLoop;
import dev.javelin.recipes.driver.RunSummary;
import dev.javelin.recipes.driver.Scoring;
import dev.javelin.recipes.driver.SftRunner;
import dev.javelin.recipes.driver.StopSignal;
import dev.javelin.recipes.driver.Validator;
import dev.javelin.recipes.ray.RayRuntime;
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

  /**
   * {@code javelin run}: GRPO through the Java API ({@link GrpoRun}), after the recipe's warm-up
   * when its checkpoint is missing.
   */
  public RunSummary run(String recipeArg, List<String> overrides) {
    RecipeConfig recipe = Recipes.load(recipeArg, overrides);
    RayRuntime.requireHead(recipe.trainer());
    recipe.checkTrainable();
    PlanCommand.beforeRun(recipe, env, out);
    Optional<RunSummary> interruptedWarmUp = warmUpIfNeeded(recipe, overrides);
    if (interruptedWarmUp.isPresent()) {
      return interruptedWarmUp.get(); // Ctrl-C during the warm-up ends the command there
    }
    return GrpoRun.run(new RunSpec(recipe, null, List.of(), out, env, recipeArg)).summary();
  }

  /** {@code javelin report <run dir>}: (re)writes the run's report.html. */
  public Path report(String runDir) {
    Path dir = Path.of(runDir);
    if (!Files.isRegularFile(dir.resolve("metrics.jsonl"))) {
      throw new ConfigException(
          "report: "
              + dir
              + " has no metrics.jsonl; pass a run directory ("
              + TrainerSection.DEFAULT_LOCAL_DIR.name()
              + ")");
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
    RayRuntime.requireHead(recipe.trainer());
    TaskData task = TaskLoader.load(recipe);
    int total = RunLoop.totalSteps(recipe, task, "examples", "");
    Path dir = RunLoop.prepareRunDir(recipe);
    out.printf(
        Locale.ROOT,
        "javelin sft %s: %d examples, %d steps, model -> %s%n",
        recipeArg,
        task.train().size(),
        total,
        SftRunner.outputDir(recipe));
    out.println(SftRunner.whatToExpect(recipe, total));
    return new RunLoop(out, env)
        .run(
            recipe,
            task,
            null,
            total,
            dir,
            1,
            StopSignal.onInterrupt(),
            (parts, stop, toLoggers) -> new SftRunner(parts).addListener(toLoggers).run(stop));
  }

  /** {@code javelin eval}: validation of a recipe's model, or of a checkpoint directory. */
  public Map<String, Double> eval(String target, List<String> overrides) {
    RecipeConfig recipe = evalRecipe(target, overrides);
    RayRuntime.requireHead(recipe.trainer());
    TaskData task = TaskLoader.load(recipe);
    if (task.val().isEmpty()) {
      throw new ConfigException(
          "recipe key '" + DataConfig.VAL_FILES.name() + "': eval needs validation prompts");
    }
    out.printf(Locale.ROOT, "javelin eval %s: %d prompts%n", target, task.val().size());
    new RunLoop(out, env)
        .checkMemory(
            recipe, MemoryBudget.forEval(ModelInit.config(recipe), recipe, task.val().size()));
    boolean cluster = recipe.trainer().ray() == RayMode.CLUSTER;
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
      CheckpointArg.refuseMissing(target);
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
              + " pass a recipe with "
              + ModelSection.PATH.assign(p)
              + " instead");
    }
    // A checkpoint is data: the code it names and where it would write are not taken from it.
    CheckpointRecipe.Loaded loaded =
        CheckpointRecipe.load(recipe, p, EvalReport.runDirOf(p), overrides);
    loaded.notes().forEach(n -> out.println("javelin eval: " + n));
    return loaded.recipe();
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
      if (TrainerSection.SAMPLERS.isSetBy(o)
          || TrainerSection.DEVICE.isSetBy(o)
          || TrainerSection.RAY.isSetBy(o)
          || TrainerSection.RAY_ADDRESS.isSetBy(o)
          || TrainerSection.MAX_RESTARTS.isSetBy(o)) {
        carried.add(o);
      }
    }
    carried.add(RecipeConfig.SFT_OUTPUT_DIR.assign(path));
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
}
