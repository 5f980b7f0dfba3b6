package dev.javelin.recipes.cli;

import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.TrainerSection;
import dev.javelin.trainer.Checkpointer;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A {@code javelin eval} argument that names a checkpoint which is not there: said as a missing
 * checkpoint, with the ones its run directory keeps, rather than as a missing recipe file.
 */
final class CheckpointArg {
  private static final Pattern STEP_DIR = Pattern.compile("global_step_\\d{1,18}");

  private CheckpointArg() {}

  /**
   * Throws when {@code target} (not an existing directory) looks like a checkpoint: a {@code
   * global_step_N} name, or a path under a run directory that keeps checkpoints.
   */
  static void refuseMissing(String target) {
    Path p = Path.of(target);
    Path name = p.getFileName();
    Path parent = p.toAbsolutePath().getParent();
    boolean stepName = name != null && STEP_DIR.matcher(name.toString()).matches();
    List<Path> kept = parent == null ? List.of() : new Checkpointer(parent, 0).steps();
    if (!stepName && (kept.isEmpty() || target.endsWith(".yaml"))) {
      return; // a recipe name or file: Recipes says what is wrong with it
    }
    if (kept.isEmpty()) {
      throw new ConfigException(
          "eval: no checkpoint at "
              + target
              + " (and no checkpoints beside it): train first with ./javelin run <recipe>, then"
              + " pass its run directory ("
              + TrainerSection.DEFAULT_LOCAL_DIR.name()
              + ") or one of its global_step_N");
    }
    StringBuilder names = new StringBuilder();
    for (Path k : kept) {
      names.append(names.length() == 0 ? "" : ", ").append(k.getFileName());
    }
    throw new ConfigException(
        "eval: no checkpoint at "
            + target
            + "; "
            + p.getParent()
            + " keeps "
            + names
            + " (the newest "
            + TrainerSection.MAX_ACTOR_CKPT_TO_KEEP.name()
            + "): pass one of them, or "
            + p.getParent()
            + " itself for the newest");
  }
}
