package dev.javelin.backend.runtime;

import dev.javelin.backend.batch.HeadTiles;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.model.ModelConfig;

/**
 * The heap a train step holds at its peak, from the model and the batch alone (f32 bytes). Terms:
 *
 * <ul>
 *   <li>{@code state}: weights, AdamW m and v (12 B/param);
 *   <li>{@code update}: what the step writes besides them: the new weights, m and v that a device
 *       without donation (cpu) allocates, plus the gradients (16 B/param);
 *   <li>{@code activations}: per token, under {@link Remat#ELEMENTWISE} every layer's block inputs
 *       and outputs and its attention scores and probabilities ({@code L·(6·D + 4·I + 2·H·T)}
 *       floats); under {@link Remat#BLOCKS} one (B, T, D) hidden state per layer plus one layer's
 *       values and their cotangents while it is recomputed ({@code L·D + 3·(6·D + 4·I + 2·H·T)},
 *       the factor covering the buffer plan's fragmentation);
 *   <li>{@code logits}: three (B, T, V) tensors (logits, softmax, their cotangent) under {@link
 *       Remat#ELEMENTWISE}; under {@link Remat#BLOCKS} three of one head tile ({@link
 *       HeadTiles#of}), since each chunk is recomputed in the backward;
 *   <li>{@code workspace}: the cpu device's array pool of recycled buffers, at most {@value
 *       #POOL_BOUND_MIB} MiB.
 * </ul>
 *
 * <p>{@link Remat#NONE} keeps every forward value and is not modelled. The cpu device's measured
 * peak (live heap after GC, array pool included) stays within 0.5–1.0 × {@link #total} for the
 * benchmark configs; docs/perf/backend-model.md has the figures.
 */
public record TrainMemory(long state, long update, long activations, long logits, long workspace) {
  /** The cpu device's default array-pool bound, in MiB. */
  public static final int POOL_BOUND_MIB = 256;

  /** The estimate for a step over {@code rows} sequences of {@code positions} tokens. */
  public static TrainMemory of(ModelConfig c, int rows, int positions, Remat remat) {
    long p = c.parameterCount();
    return new TrainMemory(
        12L * p,
        16L * p,
        activations(c, rows, positions, remat),
        logits(c, rows, positions, remat),
        (long) POOL_BOUND_MIB << 20);
  }

  /** Activation bytes kept for the backward pass (see the class comment). */
  public static long activations(ModelConfig c, int rows, int positions, Remat remat) {
    long tokens = (long) rows * positions;
    long perLayer = 6L * c.hidden() + 4L * c.intermediate() + 2L * c.heads() * positions;
    return switch (requireModelled(remat)) {
      case BLOCKS -> tokens * ((long) c.layers() * c.hidden() + perLayer * 3) * 4L;
      default -> tokens * c.layers() * perLayer * 4L;
    };
  }

  /** Logit-sized bytes held at once (see the class comment). */
  public static long logits(ModelConfig c, int rows, int positions, Remat remat) {
    long full = (long) rows * positions * c.vocabSize() * 4L;
    return switch (requireModelled(remat)) {
      case BLOCKS -> {
        long tile =
            HeadTiles.of(rows, positions, c.vocabSize()).bytes(rows, positions, c.vocabSize());
        yield 3L * Math.min(full, tile);
      }
      default -> 3L * full;
    };
  }

  /** Everything the step holds at its peak, in bytes. */
  public long total() {
    return state + update + activations + logits + workspace;
  }

  private static Remat requireModelled(Remat remat) {
    if (remat == Remat.NONE) {
      throw new IllegalArgumentException(
          "Remat.NONE keeps every forward value; memory is estimated for ELEMENTWISE and BLOCKS");
    }
    return remat;
  }
}
