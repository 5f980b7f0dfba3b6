package dev.javelin.backend.batch;

import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;

/**
 * Per-token results for a {@link TokenBatch} of length T: log-probs and entropies (B, T-1) of the
 * tokens {@code ids[:, 1:]}; entries past a row's end are meaningless and should be masked.
 */
public record TokenLogProbs(Tensor.F32 logp, Tensor.F32 entropy) {

  /** Keeps the first {@code cols} columns of (B, C) tensors: drops bucket padding. */
  public static Tensor.F32 firstColumns(Tensor.F32 x, int cols) {
    return withColumns(x, cols);
  }

  /** Pads (B, C) with zero columns up to {@code cols}. */
  public static Tensor.F32 padColumns(Tensor.F32 x, int cols) {
    return withColumns(x, cols);
  }

  /** (B, C) → (B, cols): the first min(C, cols) columns of each row, zeros after them. */
  private static Tensor.F32 withColumns(Tensor.F32 x, int cols) {
    int b = x.shape().dim(0);
    int c = x.shape().dim(1);
    if (cols == c) {
      return x;
    }
    float[] out = new float[b * cols];
    for (int r = 0; r < b; r++) {
      System.arraycopy(x.data(), r * c, out, r * cols, Math.min(c, cols));
    }
    return new Tensor.F32(Shape.of(b, cols), out);
  }
}
