package dev.javelin.recipes.driver;

import dev.javelin.recipes.config.TrainerSection;
import dev.javelin.trainer.GangRankException;
import dev.javelin.trainer.ResumeMode;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;

/**
 * Runs the GRPO loop, and when a rank of the trainer gang fails ({@code trainer.nnodes} > 1),
 * restarts the gang from the run's last checkpoint and goes on, at most {@code
 * trainer.max_restarts} times in a run. Each restart is one line naming the rank, the step and the
 * checkpoint. The loop after a restart is a fresh {@link GrpoDriver} resuming from that checkpoint,
 * exactly as rerunning the command would: the records of steps after it are dropped and those steps
 * run again with the same data order and seeds, so the run ends where an uninterrupted one ends.
 * The samplers, scoring and metrics stay up. Any other failure ends the run as before.
 */
public final class GangRestarts {
  private GangRestarts() {}

  /**
   * Runs {@code attempt} on a driver of {@code parts}, again on a fresh driver after each restart.
   */
  public static RunSummary run(
      RunParts parts, PrintStream out, Function<GrpoDriver, RunSummary> attempt) {
    int max = parts.recipe().trainer().maxRestarts();
    Optional<ResumeMode> from = Optional.empty(); // the recipe's own resume_mode
    for (int restarts = 0; ; restarts++) {
      GrpoDriver driver = new GrpoDriver(parts, from);
      try {
        return attempt.apply(driver);
      } catch (RuntimeException e) {
        Optional<GangRankException.Failure> failed = GangRankException.in(e);
        if (failed.isEmpty()) {
          throw e;
        }
        Optional<Path> saved = driver.lastSaved();
        String what =
            "trainer rank "
                + failed.get().rank()
                + " failed at step "
                + driver.stepInProgress()
                + ": "
                + failed.get().reason();
        if (restarts >= max) {
          out.println(
              what
                  + "; not restarted ("
                  + TrainerSection.MAX_RESTARTS.assign(max)
                  + ", "
                  + restarts
                  + " used)");
          throw e;
        }
        if (saved.isPresent()) {
          from = Optional.of(new ResumeMode.FromPath(saved.get()));
        }
        out.println(
            what
                + "; restarting the trainer gang from "
                + from.map(GangRestarts::describe).orElse("the point this run started from")
                + " (restart "
                + (restarts + 1)
                + " of "
                + TrainerSection.MAX_RESTARTS.assign(max)
                + ")");
        parts.trainer().restart();
        parts.samplers().rewind(); // they get the checkpoint's version again
      }
    }
  }

  private static String describe(ResumeMode mode) {
    return mode instanceof ResumeMode.FromPath p ? p.dir().toString() : mode.toString();
  }
}
