package dev.javelin.weightsync.wire;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Little-endian writer for the formats {@link WireReader} reads; arrays carry int lengths. */
public final class WireWriter {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteBuffer scratch = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);

  public WireWriter i32(int v) {
    scratch.clear();
    out.write(scratch.putInt(v).array(), 0, 4);
    return this;
  }

  public WireWriter i64(long v) {
    scratch.clear();
    out.write(scratch.putLong(v).array(), 0, 8);
    return this;
  }

  public WireWriter f64(double v) {
    return i64(Double.doubleToRawLongBits(v));
  }

  public WireWriter u8(int v) {
    out.write(v);
    return this;
  }

  /** Length-prefixed UTF-8. */
  public WireWriter string(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    i32(b.length);
    out.write(b, 0, b.length);
    return this;
  }

  /** Length-prefixed ints. */
  public WireWriter ints(int[] xs) {
    i32(xs.length);
    ByteBuffer b = ByteBuffer.allocate(4 * xs.length).order(ByteOrder.LITTLE_ENDIAN);
    b.asIntBuffer().put(xs);
    out.write(b.array(), 0, b.capacity());
    return this;
  }

  /** Floats without a length (the caller wrote it). */
  public WireWriter floats(float[] xs) {
    ByteBuffer b = ByteBuffer.allocate(4 * xs.length).order(ByteOrder.LITTLE_ENDIAN);
    b.asFloatBuffer().put(xs);
    out.write(b.array(), 0, b.capacity());
    return this;
  }

  /** Length-prefixed floats, or the length -1 for null. */
  public WireWriter floatsOrNull(float[] xs) {
    if (xs == null) {
      return i32(-1);
    }
    return i32(xs.length).floats(xs);
  }

  /** Length-prefixed doubles. */
  public WireWriter doubles(double[] xs) {
    i32(xs.length);
    ByteBuffer b = ByteBuffer.allocate(8 * xs.length).order(ByteOrder.LITTLE_ENDIAN);
    b.asDoubleBuffer().put(xs);
    out.write(b.array(), 0, b.capacity());
    return this;
  }

  public byte[] toByteArray() {
    return out.toByteArray();
  }
}
