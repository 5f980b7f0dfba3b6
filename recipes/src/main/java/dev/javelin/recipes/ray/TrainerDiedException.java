package dev.javelin.recipes.ray;

/**
 * The trainer actor's worker process died: the run cannot go on (a fresh trainer would have lost
 * the weights) and its message, one line, says to rerun the command to resume. The command line
 * prints that line and exits 1, without the Ray trace behind it.
 */
public final class TrainerDiedException extends IllegalStateException {
  TrainerDiedException(String rayMessage, Throwable cause) {
    super(
        "the trainer actor's worker process died ("
            + (rayMessage == null ? "no detail" : rayMessage.lines().findFirst().orElse(""))
            + "); the run stops here: rerun the same command to resume from its last checkpoint",
        cause);
  }
}
