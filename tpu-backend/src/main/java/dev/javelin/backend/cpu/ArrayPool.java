package dev.javelin.backend.cpu;

import dev.javelin.backend.DType;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Recycles the arrays of closed buffers into the outputs of later runs. A decode loop that closes
 * last step's KV caches gets them back as this step's outputs, so the heap stays flat instead of
 * churning a full cache per token. Bounded, so an unusual workload cannot hoard memory.
 */
final class ArrayPool {
  private final long maxBytes;
  private final Map<Key, ArrayDeque<Object>> free = new HashMap<>();
  private long heldBytes;

  private record Key(DType dtype, int size) {}

  ArrayPool(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  /** An array of the type and size: recycled (with stale contents) or new (zeroed). */
  synchronized Object take(DType dtype, int size) {
    ArrayDeque<Object> q = free.get(new Key(dtype, size));
    if (q != null && !q.isEmpty()) {
      heldBytes -= bytes(dtype, size);
      return q.pop();
    }
    return Conversions.allocate(dtype, size);
  }

  /** Hands back an array nobody references any more. */
  synchronized void give(DType dtype, int size, Object array) {
    long b = bytes(dtype, size);
    if (size == 0 || heldBytes + b > maxBytes) {
      return;
    }
    free.computeIfAbsent(new Key(dtype, size), k -> new ArrayDeque<>()).push(array);
    heldBytes += b;
  }

  synchronized long heldBytes() {
    return heldBytes;
  }

  private static long bytes(DType dtype, int size) {
    return (long) dtype.byteSize() * size;
  }
}
