package dev.javelin.recipes.driver;

import dev.javelin.recipes.metrics.ConsoleProgress;
import dev.javelin.recipes.metrics.HeldOut;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What a run did, printed at its end.
 *
 * @param firstStep the first step this process ran (0 when none)
 * @param lastStep the last completed step
 * @param startAccuracy held-out greedy accuracy before training (NaN when unknown)
 * @param finalAccuracy the last held-out value measured (NaN when not validated)
 * @param finalAccuracyStep the step {@code finalAccuracy} was measured at
 * @param finalReward mean training reward of the last step
 * @param seconds wall time of the loop
 * @param stopped whether the run stopped early (Ctrl-C)
 * @param runDir {@code trainer.default_local_dir}
 * @param heldOutIsAccuracy whether the held-out values are accuracies ({@link HeldOut})
 */
public record RunSummary(
    int firstStep,
    int lastStep,
    double startAccuracy,
    double finalAccuracy,
    int finalAccuracyStep,
    double finalReward,
    double seconds,
    boolean stopped,
    Path runDir,
    boolean heldOutIsAccuracy) {

  /** The lines printed at the end of a run. */
  public String render() {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "%s after step %d in %s%s%n",
            stopped ? "stopped" : "finished",
            lastStep,
            ConsoleProgress.duration(seconds),
            Double.isNaN(finalReward)
                ? ""
                : String.format(Locale.ROOT, "; last-step reward %.3f", finalReward)));
    if (!Double.isNaN(startAccuracy) || !Double.isNaN(finalAccuracy)) {
      boolean acc = heldOutIsAccuracy;
      sb.append(
          String.format(
              Locale.ROOT,
              "%s: %s at start -> %s at step %d (%s)%n",
              HeldOut.label(acc),
              HeldOut.format(startAccuracy, acc),
              HeldOut.format(finalAccuracy, acc),
              finalAccuracyStep,
              HeldOut.delta(startAccuracy, finalAccuracy, acc)));
    }
    sb.append("checkpoints and metrics.jsonl: ").append(runDir.toAbsolutePath());
    return sb.toString();
  }
}
