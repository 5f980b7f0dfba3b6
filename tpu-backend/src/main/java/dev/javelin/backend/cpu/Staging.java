package dev.javelin.backend.cpu;

import org.bytedeco.javacpp.FloatPointer;

/**
 * Grow-only off-heap buffers that matrix products stage their heap operands through. JNI's array
 * pinning copies whole arrays in and out on every call; one bulk copy into native memory that lives
 * for the executable is cheaper and works for sub-matrices at any offset.
 */
final class Staging implements AutoCloseable {
  private final FloatPointer[] buffers = new FloatPointer[3];

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

  @Override
  public void close() {
    for (int i = 0; i < buffers.length; i++) {
      if (buffers[i] != null) {
        buffers[i].close();
        buffers[i] = null;
      }
    }
  }
}
