package dev.javelin.backend.runtime;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Bounded per-shape program caches. A sampler or trainer meets a new sequence-length bucket now and
 * then; unbounded, each bucket's compiled programs (and their staging buffers, sized like the
 * largest matrix operand) stayed for the life of the model. Least recently used first out.
 */
final class ProgramLru {
  /**
   * Programs kept per model ({@code -Djavelin.programs.max}, default 24): room for the decode,
   * prefill, log-prob and train programs of a few buckets at once.
   */
  static final int MAX_PROGRAMS = Math.max(4, Integer.getInteger("javelin.programs.max", 24));

  private ProgramLru() {}

  /** An access-ordered map holding at most {@code max} entries; evicted values go to onEvict. */
  static <V> Map<String, V> map(int max, Consumer<V> onEvict) {
    return new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
        if (size() <= max) {
          return false;
        }
        onEvict.accept(eldest.getValue());
        return true;
      }
    };
  }
}
