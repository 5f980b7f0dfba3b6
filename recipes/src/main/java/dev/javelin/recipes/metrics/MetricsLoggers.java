package dev.javelin.recipes.metrics;

import dev.javelin.recipes.config.TrainerSection;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The backends named in {@code trainer.logger}, each behind a {@link GuardedLogger}. {@code
 * console} (the progress bar) and {@code jsonl} (metrics.jsonl) are always on, listed or not: the
 * report and {@code javelin status} read metrics.jsonl, and the bar costs nothing.
 */
public final class MetricsLoggers implements AutoCloseable {
  private final List<GuardedLogger> loggers;
  private final PrintStream out;
  private final Path runDir;
  private boolean finished;

  private MetricsLoggers(List<GuardedLogger> loggers, PrintStream out, Path runDir) {
    this.loggers = loggers;
    this.out = out;
    this.runDir = runDir;
  }

  /** What a run needs to open its backends. */
  public record Run(
      Path runDir,
      String project,
      String experiment,
      Map<String, String> params,
      Map<String, String> env) {}

  /** Opens each backend in {@code names}; one that cannot start is reported and left out. */
  public static MetricsLoggers open(List<String> names, Run run, PrintStream out) {
    List<GuardedLogger> loggers = new ArrayList<>();
    for (String n : names) {
      try {
        switch (n) {
          case "tensorboard" -> {
            Path dir = TensorBoardLogger.directory(run.runDir(), run.env());
            loggers.add(new GuardedLogger(new TensorBoardLogger(dir)));
            out.println("tensorboard: tensorboard --logdir " + dir.toAbsolutePath());
          }
          case "mlflow" -> loggers.add(new GuardedLogger(MlflowLogger.start(run, out)));
          case "wandb" ->
              out.println(
                  TrainerSection.LOGGER.name()
                      + ": wandb is not available in javelin; use tensorboard or mlflow"
                      + " (metrics.jsonl and report.html are always written)");
          default -> {} // console and jsonl are always on
        }
      } catch (IOException | RuntimeException e) {
        out.println(
            TrainerSection.LOGGER.name()
                + ": "
                + n
                + " could not start ("
                + e.getMessage()
                + "); skipped");
      }
    }
    return new MetricsLoggers(loggers, out, run.runDir());
  }

  /** Sends one step to every backend. */
  public void log(long step, Map<String, Double> metrics) {
    loggers.forEach(l -> l.log(step, metrics));
  }

  /** Ends every backend with the run's outcome and prints a line per backend that had errors. */
  public void finish(boolean failed) {
    if (finished) {
      return;
    }
    finished = true;
    for (GuardedLogger l : loggers) {
      l.finish(failed, runDir);
      if (l.errors() > 0) {
        out.println("logger/" + l.name() + "/errors = " + l.errors());
      }
    }
  }

  /** Finishes as failed when {@link #finish} was not called (the run threw). */
  @Override
  public void close() {
    finish(true);
  }
}
