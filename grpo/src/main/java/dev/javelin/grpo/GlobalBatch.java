package dev.javelin.grpo;

/**
 * Denominators of the whole mini-batch (the unit of one optimizer step), handed to every
 * micro-batch's loss so that micro-batch losses and gradients <em>sum</em> to the full-batch ones.
 *
 * <p>This is what makes gradient accumulation exact. VeRL's legacy FSDP path normalises each
 * micro-batch by its own token count and then scales by 1/accumulation-steps, which weights tokens
 * of short micro-batches more; Javelin, like VeRL's newer engine path ({@code global_batch_info}),
 * divides by the global counts instead.
 *
 * @param tokens valid (mask = true) tokens in the whole mini-batch; {@code token-mean} divides by
 *     it
 * @param sequences responses with at least one valid token; {@code seq-mean-*} divide by it
 * @param normLength the constant of {@code seq-mean-token-sum-norm} (VeRL's {@code
 *     loss_scale_factor}, by default the padded response length T)
 */
public record GlobalBatch(long tokens, long sequences, double normLength) {

  /** Validates that the denominators are positive. */
  public GlobalBatch {
    if (tokens < 1) {
      throw new IllegalArgumentException(
          "tokens must be >= 1 (the mini-batch has no valid token), got " + tokens);
    }
    if (sequences < 1) {
      throw new IllegalArgumentException("sequences must be >= 1, got " + sequences);
    }
    if (!(normLength > 0)) {
      throw new IllegalArgumentException("normLength must be > 0, got " + normLength);
    }
  }

  /** Counts of {@code batch} itself, with {@code normLength = T}: the one-batch case. */
  public static GlobalBatch of(PolicyBatch batch) {
    return of(batch.mask(), batch.rows(), batch.cols());
  }

  /** Counts of a (B, T) mask, with {@code normLength = T}. */
  public static GlobalBatch of(boolean[] mask, int rows, int cols) {
    long tokens = 0;
    long sequences = 0;
    for (int r = 0; r < rows; r++) {
      int len = Shapes.rowLength(mask, cols, r);
      tokens += len;
      sequences += len > 0 ? 1 : 0;
    }
    return new GlobalBatch(tokens, sequences, cols);
  }

  /** The same counts with another {@code seq-mean-token-sum-norm} constant. */
  public GlobalBatch withNormLength(double length) {
    return new GlobalBatch(tokens, sequences, length);
  }
}
