package dev.javelin.trainer.codec;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Little-endian writer for the trainer's wire formats; lengths are int counts before arrays. */
final class WireWriter {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteBuffer scratch = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);

  void putInt(int v) {
    scratch.clear();
    scratch.putInt(v);
    out.write(scratch.array(), 0, 4);
  }

  void putLong(long v) {
    scratch.clear();
    scratch.putLong(v);
    out.write(scratch.array(), 0, 8);
  }

  void putDouble(double v) {
    putLong(Double.doubleToRawLongBits(v));
  }

  void putString(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    putInt(b.length);
    out.write(b, 0, b.length);
  }

  void putInts(int[] a) {
    putInt(a.length);
    ByteBuffer b = ByteBuffer.allocate(4 * a.length).order(ByteOrder.LITTLE_ENDIAN);
    b.asIntBuffer().put(a);
    out.write(b.array(), 0, b.capacity());
  }

  /** A float array, or the length -1 for null. */
  void putFloats(float[] a) {
    if (a == null) {
      putInt(-1);
      return;
    }
    putInt(a.length);
    ByteBuffer b = ByteBuffer.allocate(4 * a.length).order(ByteOrder.LITTLE_ENDIAN);
    b.asFloatBuffer().put(a);
    out.write(b.array(), 0, b.capacity());
  }

  void putDoubles(double[] a) {
    putInt(a.length);
    ByteBuffer b = ByteBuffer.allocate(8 * a.length).order(ByteOrder.LITTLE_ENDIAN);
    b.asDoubleBuffer().put(a);
    out.write(b.array(), 0, b.capacity());
  }

  byte[] toBytes() {
    return out.toByteArray();
  }
}
