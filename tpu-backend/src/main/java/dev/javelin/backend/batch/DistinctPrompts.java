package dev.javelin.backend.batch;

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
}
