package dev.javelin.recipes.driver;

import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.DataConfig;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.recipes.config.TrainerSection.RayMode;
import dev.javelin.recipes.metrics.ConsoleProgress;
import dev.javelin.recipes.metrics.MetricsJsonl;
import dev.javelin.recipes.metrics.MetricsLoggers;
import dev.javelin.recipes.metrics.RunFile;
import dev.javelin.recipes.metrics.RunWriteException;
import dev.javelin.recipes.ray.Workers;
import dev.javelin.recipes.report.RunReport;
import dev.javelin.recipes.task.TaskData;
import dev.javelin.rewards.RewardFunction;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Opens what a training loop needs (scoring, workers, metrics.jsonl, the trainer.logger backends),
 * runs the loop and prints its summary: the one place the CLI's {@code run}/{@code sft} and the
 * Java API start a loop.
 */
public final class RunLoop {
  /**
   * A training loop over the pieces {@link #run} opens for it; {@code toLoggers} passes every
   * logged step to the recipe's trainer.logger backends.
   */
  @FunctionalInterface
  public interface Body {
    /** Runs the loop to its end or to {@code stop}. */
    RunSummary run(RunParts parts, StopSignal stop, StepListener toLoggers);
  }

  private final PrintStream out;
  private final Map<String, String> env;

  /** Prints to {@code out}; {@code env} stands for the process environment (logger backends). */
  public RunLoop(PrintStream out, Map<String, String> env) {
    this.out = out;
    this.env = Map.copyOf(env);
  }

  /**
   * Runs {@code body} with a progress bar counting from {@code firstStep} and prints its summary.
   * {@code reward} scores the rollouts; null means the recipe's {@code custom_reward_function}. The
   * backends are finished as failed when {@code body} throws; {@code stop} is told the loop ended.
   */
  public RunSummary run(
      RecipeConfig recipe,
      TaskData task,
      RewardFunction reward,
      int total,
      Path dir,
      int firstStep,
      StopSignal stop,
      Body body) {
    checkMemory(recipe, MemoryBudget.of(ModelInit.config(recipe), recipe));
    try (Scoring scoring = new Scoring(recipe, reward, task.tokenizer()); // errors before workers
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
              // the command's own stream (System.out from main): what a run says is in one place
              out == System.out
                  ? ConsoleProgress.stdout(firstStep)
                  : new ConsoleProgress(out, false, firstStep));
      RunSummary summary;
      try (MetricsLoggers loggers =
          MetricsLoggers.open(recipe.trainer().loggers(), loggerRun(recipe, dir), out)) {
        summary = body.run(parts, stop, (step, steps, m) -> loggers.log(step, m));
        loggers.finish(false);
      }
      out.println(summary.render());
      out.println(scoring.summary());
      return summary;
    } finally {
      stop.finished();
    }
  }

  /**
   * Prints the memory estimate and, when everything runs in this JVM, refuses a heap it does not
   * fit before any worker starts (naming JAVELIN_HEAP).
   */
  public void checkMemory(RecipeConfig recipe, MemoryBudget budget) {
    out.println(budget.describe());
    if (recipe.trainer().ray() != RayMode.CLUSTER) {
      budget.check(Runtime.getRuntime().maxMemory());
    }
  }

  /**
   * Writes the run's report.html. After a run that ended well a failure to write it (a full disk)
   * is the run's failure, one line naming the file; after a failed run, whose own failure is the
   * one to report, it is only mentioned.
   */
  public void writeReport(Path dir, boolean runEndedWell) {
    try {
      out.println("report: " + RunReport.write(dir).toAbsolutePath());
    } catch (RunWriteException e) {
      if (runEndedWell) {
        throw e;
      }
      out.println("report: " + e.getMessage());
    } catch (IOException | UncheckedIOException e) {
      out.println(
          "report: could not read the run's records for "
              + dir.resolve("report.html")
              + " ("
              + e
              + ")");
    }
  }

  /** The run's steps; fails when the task has fewer usable rows than one batch. */
  public static int totalSteps(RecipeConfig recipe, TaskData task, String rows, String hint) {
    int batch = recipe.data().trainBatchSize();
    if (task.train().size() < batch) {
      throw new ConfigException(
          "recipe key '"
              + DataConfig.TRAIN_BATCH_SIZE.name()
              + "': only "
              + task.train().size()
              + " usable training "
              + rows
              + " for batches of "
              + batch
              + hint);
    }
    return recipe.totalSteps(task.train().size() / batch);
  }

  /** {@code trainer.default_local_dir}, created; one line naming it when it cannot be. */
  public static Path prepareRunDir(RecipeConfig recipe) {
    recipe.trainer().checkpointer().requireWritable();
    return recipe.trainer().defaultLocalDir();
  }

  private MetricsLoggers.Run loggerRun(RecipeConfig recipe, Path dir) {
    Map<String, String> params = new TreeMap<>();
    recipe.settings().asMap().forEach((k, v) -> params.put(k, String.valueOf(v)));
    return new MetricsLoggers.Run(
        dir, recipe.trainer().projectName(), recipe.trainer().experimentName(), params, env);
  }

  private static void writeRecipe(RecipeConfig recipe, Path dir) {
    RunFile.replace(dir.resolve("recipe.yaml"), Recipes.toYaml(recipe.settings()));
  }
}
