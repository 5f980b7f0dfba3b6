package dev.javelin.backend.batch;

import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The distinct prompts of a batch in first-seen order, and for each row {@code r} the index {@code
 * rowOf[r]} of the one it holds. GRPO's n samples per prompt repeat each prompt n times; the
 * trainer ({@link PrefixBatch}) and the sampler ({@link SlotDecoder}) run each one once.
 */
@SuppressWarnings("ArrayRecordComponent") // a lookup table, never compared
public record DistinctPrompts(List<int[]> prompts, int[] rowOf) {

  /** Groups equal prompts by contents, not identity. */
  public static DistinctPrompts of(List<int[]> prompts) {
    int[] rowOf = new int[prompts.size()];
    List<int[]> unique = new ArrayList<>();
    Map<IntBuffer, Integer> seen = new HashMap<>(); // IntBuffer: equals/hashCode by contents
    for (int r = 0; r < rowOf.length; r++) {
      int[] p = prompts.get(r);
      Integer at = seen.putIfAbsent(IntBuffer.wrap(p), unique.size());
      if (at == null) {
        at = unique.size();
        unique.add(p);
      }
      rowOf[r] = at;
    }
    return new DistinctPrompts(unique, rowOf);
  }

  /** Every row its own prompt: no sharing. */
  public static DistinctPrompts perRow(List<int[]> prompts) {
    int[] rowOf = new int[prompts.size()];
    for (int r = 0; r < rowOf.length; r++) {
      rowOf[r] = r;
    }
    return new DistinctPrompts(List.copyOf(prompts), rowOf);
  }

  /** The distinct prompts' count rounded up to a power of two: the prefill's batch size. */
  public int paddedSize() {
    int n = prompts.size();
    int h = Integer.highestOneBit(n);
    return h == n ? n : h << 1;
  }

  /** The distinct prompts and one-token padding rows up to {@link #paddedSize()} (never read). */
  public List<int[]> paddedPrompts() {
    List<int[]> batch = new ArrayList<>(prompts);
    while (batch.size() < paddedSize()) {
      batch.add(new int[] {0});
    }
    return batch;
  }

  /** Logits (n, V) of every row from the distinct prompts' logits (U', V). */
  public Tensor.F32 spread(Tensor.F32 logits) {
    int v = logits.shape().dim(1);
    float[] out = new float[rowOf.length * v]; // (n, V)
    for (int r = 0; r < rowOf.length; r++) {
      System.arraycopy(logits.data(), rowOf[r] * v, out, r * v, v);
    }
    return new Tensor.F32(Shape.of(rowOf.length, v), out);
  }

  /**
   * Where each of {@code rows} cache rows comes from when these prompts (prompt j for target row
   * {@code targets[j]}) are spliced in: row r keeps itself ({@code r}), or takes distinct prompt u
   * ({@code rows + u}).
   */
  public int[] mergeSources(int[] targets, int rows) {
    int[] src = new int[rows];
    for (int r = 0; r < rows; r++) {
      src[r] = r;
    }
    for (int j = 0; j < targets.length; j++) {
      if (targets[j] < 0 || targets[j] >= rows || src[targets[j]] != targets[j]) {
        throw new IllegalArgumentException("target rows must be distinct in [0, " + rows + ")");
      }
      src[targets[j]] = rows + rowOf[j];
    }
    return src;
  }
}
