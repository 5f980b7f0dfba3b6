package dev.javelin.recipes.config;

/**
 * {@code trainer.keep_best_checkpoint}: besides the newest {@code max_actor_ckpt_to_keep}
 * checkpoints, keep the one whose validation scored best (the held-out value of the console), named
 * by {@code best_checkpointed_iteration.txt}. A short run on a small model can peak mid-run and
 * slide back; this keeps the peak to evaluate or resume from.
 */
public final class BestCheckpointKeys {
  static final KeySet KEYS = new KeySet();
  static final KeySpec KEEP_BEST =
      KEYS.of(
          "trainer.keep_best_checkpoint",
          KeyType.BOOL,
          false,
          "also save and keep the checkpoint of the best validation");

  private BestCheckpointKeys() {}

  /** Whether the recipe keeps the best validated checkpoint. */
  public static boolean keepBest(Settings s) {
    return s.getBool(KEEP_BEST);
  }
}
