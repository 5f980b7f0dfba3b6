package dev.javelin.recipes.driver;

import dev.javelin.datasets.DataOrderState;
import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.trainer.Checkpointer;
import dev.javelin.trainer.ResumeMode;
import dev.javelin.trainer.Trainer;
import dev.javelin.trainer.TrainerState;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Step checkpoints of a run under {@code trainer.default_local_dir} (VeRL's layout, written
 * atomically by the trainer module's {@link Checkpointer}), and resuming per {@code
 * trainer.resume_mode}.
 */
final class RunCheckpoints {
  private static final Logger LOG = Logger.getLogger(RunCheckpoints.class.getName());
  private final Checkpointer checkpointer;
  private final ResumeMode mode;
  private final Trainer trainer;

  RunCheckpoints(RecipeConfig recipe, Trainer trainer) {
    this.checkpointer =
        new Checkpointer(recipe.trainer().defaultLocalDir(), recipe.trainer().maxCkptToKeep());
    this.mode = parse(recipe.trainer().resumeMode());
    this.trainer = trainer;
  }

  static ResumeMode parse(String value) {
    return switch (value.strip()) {
      case "auto" -> new ResumeMode.Auto();
      case "disable" -> new ResumeMode.Disable();
      default -> new ResumeMode.FromPath(Path.of(value.strip()));
    };
  }

  /** Restores the latest (or named) checkpoint into the trainer, or starts fresh. */
  TrainingState resume(DataOrderState fresh) {
    Optional<Path> dir;
    try {
      dir = checkpointer.resolve(mode);
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new ConfigException("recipe key 'trainer.resume_mode': " + e.getMessage(), e);
    }
    if (dir.isEmpty()) {
      return new TrainingState(0, fresh, Double.NaN);
    }
    TrainerState state = trainer.loadCheckpoint(dir.get());
    TrainingState t = TrainingState.fromExtra(state.extra());
    LOG.info(() -> "resumed from " + dir.get() + " at step " + t.globalStep());
    return t;
  }

  /** Writes step {@code state.globalStep()} and records how long it took. */
  void save(TrainingState state, Map<String, Double> metrics) {
    long t0 = System.nanoTime();
    checkpointer.save(state.globalStep(), dir -> trainer.saveCheckpoint(dir, state.toExtra()));
    metrics.put("timing_s/save_checkpoint", (System.nanoTime() - t0) / 1e9);
  }
}
