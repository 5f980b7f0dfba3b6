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
 * @param modelDir where the final model went when it is not a step checkpoint (SFT), else null
 * @param endedBy what ended the run before its last step other than Ctrl-C (e.g. {@code
 *     sft.stop_at_accuracy}), else null
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
    boolean heldOutIsAccuracy,
    Path modelDir,
    String endedBy) {

  /** The lines printed at the end of a run. */
  public String render() {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "%s after step %d in %s%s%s%n",
            stopped ? "stopped" : "finished",
            lastStep,
            ConsoleProgress.duration(seconds),
            endedBy == null ? "" : " (" + endedBy + ")",
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
    if (modelDir != null) {
      sb.append("model: ").append(modelDir.toAbsolutePath()).append(System.lineSeparator());
      sb.append("metrics.jsonl: ").append(runDir.resolve("metrics.jsonl").toAbsolutePath());
    } else {
      sb.append("checkpoints and metrics.jsonl: ").append(runDir.toAbsolutePath());
    }
    return sb.toString();
  }
}
