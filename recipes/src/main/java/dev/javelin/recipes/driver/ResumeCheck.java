package dev.javelin.recipes.driver;

import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.TrainerSection;
import dev.javelin.trainer.ResumeMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Refuses, before any worker starts, to resume a run directory whose checkpoint holds another model
 * than the recipe's (another shape or vocabulary): its weights cannot be loaded into this model,
 * and training on would mix two runs in one directory.
 */
public final class ResumeCheck {
  private ResumeCheck() {}

  /** Throws a one-line {@link ConfigException} when the checkpoint to resume is another model. */
  public static void refuseForeignModel(RecipeConfig recipe) {
    Optional<Path> ckpt = checkpointToResume(recipe);
    if (ckpt.isEmpty() || !Files.isRegularFile(ckpt.get().resolve("config.json"))) {
      return;
    }
    ModelConfig theirs;
    try {
      theirs = ModelCheckpoint.config(ckpt.get());
    } catch (RuntimeException e) {
      return; // an unreadable checkpoint config is reported when it is loaded, with its file
    }
    ModelConfig ours = ModelInit.config(recipe);
    if (!describe(theirs).equals(describe(ours))) {
      throw new ConfigException(
          TrainerSection.DEFAULT_LOCAL_DIR.name()
              + " "
              + recipe.trainer().defaultLocalDir()
              + " holds a checkpoint of another model ("
              + ckpt.get().getFileName()
              + ": "
              + describe(theirs)
              + "; this recipe: "
              + describe(ours)
              + "), so the run cannot resume from it: set another "
              + TrainerSection.DEFAULT_LOCAL_DIR.name()
              + ", or "
              + TrainerSection.RESUME_MODE.assign("disable")
              + " once that directory is emptied");
    }
  }

  private static Optional<Path> checkpointToResume(RecipeConfig recipe) {
    ResumeMode mode = RunCheckpoints.parse(recipe.trainer().resumeMode());
    try {
      return recipe.trainer().checkpointer().resolve(mode);
    } catch (IllegalArgumentException | IllegalStateException e) {
      return Optional.empty(); // a bad resume_mode is reported by the resume itself
    }
  }

  /** The parts of a model's shape its weights depend on. */
  private static String describe(ModelConfig c) {
    return String.format(
        Locale.ROOT,
        "vocab %d, hidden %d, intermediate %d, %d layers, %d/%d heads of %d",
        c.vocabSize(),
        c.hidden(),
        c.intermediate(),
        c.layers(),
        c.heads(),
        c.kvHeads(),
        c.headDim());
  }
}
