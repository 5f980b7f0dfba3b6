package dev.javelin.backend.cpu;

import dev.javelin.backend.DType;
import org.bytedeco.javacpp.FloatPointer;

/**
 * Grow-only off-heap buffers that matrix products stage their heap operands through. JNI's array
 * pinning copies whole arrays in and out on every call; one bulk copy into native memory that lives
 * for the executable is cheaper and works for sub-matrices at any offset.
 */
final class Staging implements AutoCloseable {
  private final FloatPointer[] buffers = new FloatPointer[3];
  // Heap copies of strided operands, shared by the executable's products (one pair, not one per
  // product: per-product copies held ~0.2 GB per compiled train step).
  private final Object[] packs = new Object[2];

  /** Buffer {@code slot} (0 = A, 1 = B, 2 = C) with room for at least {@code size} floats. */
  FloatPointer get(int slot, long size) {
    FloatPointer p = buffers[slot];
    if (p == null || p.capacity() < size) {
      if (p != null) {
        p.close();
      }
      p = new FloatPointer(Math.max(1, size));
      buffers[slot] = p;
    }
    return p;
  }

  /**
   * A heap array for packing operand {@code slot} (0 = A, 1 = B) with room for {@code size}
   * elements of {@code dtype}; grow-only, contents stale.
   */
  Object pack(int slot, DType dtype, int size) {
    Object p = packs[slot];
    boolean fits =
        dtype == DType.F32
            ? p instanceof float[] f && f.length >= size
            : p instanceof double[] d && d.length >= size;
    if (!fits) {
      p = Conversions.allocate(dtype, size);
      packs[slot] = p;
    }
    return p;
  }

  @Override
  public void close() {
    packs[0] = null;
    packs[1] = null;
    for (int i = 0; i < buffers.length; i++) {
      if (buffers[i] != null) {
        buffers[i].close();
        buffers[i] = null;
      }
    }
  }
}
