package dev.javelin.trainer;

import java.util.Map;

/**
 * What a checkpoint restores besides weights and optimizer moments.
 *
 * @param optimizerSteps AdamW updates applied so far (drives bias correction and the LR schedule)
 * @param extra the driver's own state saved with the checkpoint (data order, RNG seeds, step)
 */
public record TrainerState(long optimizerSteps, Map<String, String> extra) {

  /** Validates and copies. */
  public TrainerState {
    if (optimizerSteps < 0) {
      throw new IllegalArgumentException("optimizerSteps must be >= 0, got " + optimizerSteps);
    }
    extra = Map.copyOf(extra);
  }
}
