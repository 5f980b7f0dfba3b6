package dev.javelin.recipes.driver;

import dev.javelin.backend.checkpoint.PeftAdapter;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.datasets.DataOrderState;
import dev.javelin.datasets.Tokenizer;
import dev.javelin.recipes.config.BestCheckpointKeys;
import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.LoraKeys;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.recipes.config.TrainerSection;
import dev.javelin.recipes.metrics.HeldOut;
import dev.javelin.recipes.task.HfTokenizerFiles;
import dev.javelin.trainer.BestCheckpoint;
import dev.javelin.trainer.Checkpointer;
import dev.javelin.trainer.FaultPoint;
import dev.javelin.trainer.ResumeMode;
import dev.javelin.trainer.Trainer;
import dev.javelin.trainer.TrainerState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Step checkpoints of a run under {@code trainer.default_local_dir} (VeRL's layout, written
 * atomically and checksummed by the trainer module's {@link Checkpointer}), and resuming per {@code
 * trainer.resume_mode}: a damaged latest checkpoint is skipped for the previous complete one. With
 * {@code trainer.keep_best_checkpoint} the step of the best validation is saved too and kept.
 */
public final class RunCheckpoints {
  private static final Logger LOG = Logger.getLogger(RunCheckpoints.class.getName());
  private final Checkpointer checkpointer;
  private final ResumeMode mode;
  private final Trainer trainer;
  private final RecipeConfig recipe;
  private final Tokenizer tokenizer;
  private final boolean keepBest;
  private Optional<BestCheckpoint> best = Optional.empty();

  /** Resuming per {@code mode} instead of the recipe's {@code trainer.resume_mode} when given. */
  RunCheckpoints(
      RecipeConfig recipe, Trainer trainer, Tokenizer tokenizer, Optional<ResumeMode> mode) {
    this.recipe = recipe;
    this.tokenizer = tokenizer;
    this.checkpointer = recipe.trainer().checkpointer();
    this.mode = mode.orElseGet(() -> parse(recipe.trainer().resumeMode()));
    this.trainer = trainer;
    this.keepBest = BestCheckpointKeys.keepBest(recipe.settings());
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
    checkpointer.requireWritable(); // every run saves at its last step: fail now, not then
    Optional<Path> dir;
    try {
      dir = checkpointer.resolve(mode);
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new ConfigException(
          "recipe key '" + TrainerSection.RESUME_MODE.name() + "': " + e.getMessage(), e);
    }
    if (dir.isEmpty()) {
      refuseToOverwrite(recipe);
      return new TrainingState(0, fresh, Double.NaN);
    }
    requireSameAdapters(dir.get());
    TrainerState state = trainer.loadCheckpoint(dir.get());
    TrainingState t = TrainingState.fromExtra(state.extra());
    LOG.info(() -> "resumed from " + dir.get() + " at step " + t.globalStep());
    // the best so far, unless it was measured after the step resumed from (an abandoned branch)
    best = BestCheckpoint.read(checkpointer.root()).filter(b -> b.step() <= t.globalStep());
    return t;
  }

  /**
   * A LoRA checkpoint resumes only with the adapters it was trained with, and a full fine-tuning
   * one only without: checked here so a mismatch is one line naming the key, not a trainer error.
   */
  private void requireSameAdapters(Path dir) {
    LoraConfig run = recipe.lora();
    Path adapter = dir.resolve(PeftAdapter.CHECKPOINT_DIR);
    LoraConfig saved;
    try {
      saved = PeftAdapter.isIn(adapter) ? PeftAdapter.readConfig(adapter) : LoraConfig.NONE;
    } catch (IllegalArgumentException e) {
      throw new ConfigException("cannot resume from " + dir + ": " + e.getMessage(), e);
    }
    if (!saved.equals(run)) {
      boolean onlyDropout = saved.withoutDropout().equals(run.withoutDropout());
      throw new ConfigException(
          "recipe key '"
              + (onlyDropout ? LoraKeys.LORA_DROPOUT : LoraKeys.LORA_RANK).name()
              + "': "
              + dir
              + " was trained with "
              + describe(saved)
              + ", this run asks for "
              + describe(run)
              + "; resume with the same LoRA keys or start a new "
              + TrainerSection.EXPERIMENT_NAME.name());
    }
  }

  private static String describe(LoraConfig c) {
    return c.enabled()
        ? "LoRA rank "
            + c.rank()
            + ", alpha "
            + c.alpha()
            + " on "
            + c.targets()
            + (c.drops() ? ", dropout " + c.dropout() : "")
        : "full fine-tuning (lora_rank=0)";
  }

  /**
   * {@code resume_mode=disable} in a directory that holds checkpoints: a fresh run would mix its
   * checkpoints and metrics with the old run's, so it is refused with both ways out.
   */
  public static void refuseToOverwrite(RecipeConfig recipe) {
    if (!(parse(recipe.trainer().resumeMode()) instanceof ResumeMode.Disable)) {
      return;
    }
    Checkpointer existing = recipe.trainer().checkpointer();
    List<Path> steps = existing.steps();
    if (existing.hasCheckpoints()) {
      throw new ConfigException(
          "recipe key '"
              + TrainerSection.RESUME_MODE.name()
              + "': disable, but "
              + recipe.trainer().defaultLocalDir()
              + " already holds checkpoints (latest "
              + (steps.isEmpty() ? Checkpointer.MARKER : steps.get(steps.size() - 1).getFileName())
              + "); nothing was changed. To start fresh set another "
              + TrainerSection.DEFAULT_LOCAL_DIR.name()
              + " (or delete that directory); to continue that run drop "
              + TrainerSection.RESUME_MODE.assign("disable"));
    }
  }

  /**
   * Writes step {@code state.globalStep()} with the recipe that trained it (so evaluating the
   * checkpoint uses that recipe) and records how long it took.
   */
  void save(TrainingState state, Map<String, Double> metrics) {
    long t0 = System.nanoTime();
    String yaml = Recipes.toYaml(recipe.settings());
    checkpointer.save(
        state.globalStep(),
        dir -> {
          trainer.saveCheckpoint(dir, state.toExtra());
          FaultPoint.reach("checkpoint-partial", dir);
          HfTokenizerFiles.write(dir, tokenizer); // the directory loads in transformers as it is
          Files.writeString(dir.resolve("recipe.yaml"), yaml);
        });
    FaultPoint.reach("checkpoint-saved", recipe.trainer().defaultLocalDir());
    metrics.put("timing_s/save_checkpoint", (System.nanoTime() - t0) / 1e9);
  }

  /** The directory of step {@code step}'s checkpoint. */
  Path stepDir(int step) {
    return checkpointer.stepDir(step);
  }

  /** Whether {@code heldOut} (NaN: no validation) beats every earlier validation of the run. */
  boolean isNewBest(double heldOut) {
    return keepBest && !Double.isNaN(heldOut) && best.map(b -> heldOut > b.score()).orElse(true);
  }

  /**
   * The best trained step when {@code trainer.keep_best_checkpoint} is set and the held-out value
   * measured before training ({@code start}, NaN when unknown) beat it: the kept "best" is then
   * only the best of the trained steps: the line that the end of the run says then.
   */
  Optional<String> startWasBetter(double start, boolean isAccuracy) {
    Optional<BestCheckpoint> better =
        keepBest && !Double.isNaN(start) ? best.filter(b -> b.score() < start) : Optional.empty();
    return better.map(
        b ->
            "no trained step beat the starting model's "
                + HeldOut.format(start, isAccuracy)
                + " (best trained: step "
                + b.step()
                + ", "
                + HeldOut.format(b.score(), isAccuracy)
                + "); the model this run started from is still the best");
  }

  /** Marks step {@code step}, saved just before, as the best validated checkpoint. */
  Path markBest(int step, double heldOut) {
    BestCheckpoint b = new BestCheckpoint(step, heldOut);
    checkpointer.markBest(b);
    best = Optional.of(b);
    return checkpointer.stepDir(step);
  }
}
