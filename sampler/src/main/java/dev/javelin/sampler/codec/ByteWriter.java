package dev.javelin.sampler.codec;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Little-endian writer for the sampler's wire formats. */
public final class ByteWriter {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteBuffer scratch = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);

  public ByteWriter i32(int v) {
    scratch.clear();
    out.write(scratch.putInt(v).array(), 0, 4);
    return this;
  }

  public ByteWriter i64(long v) {
    scratch.clear();
    out.write(scratch.putLong(v).array(), 0, 8);
    return this;
  }

  public ByteWriter f64(double v) {
    return i64(Double.doubleToRawLongBits(v));
  }

  public ByteWriter u8(int v) {
    out.write(v);
    return this;
  }

  /** Length-prefixed UTF-8. */
  public ByteWriter string(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    i32(b.length);
    out.write(b, 0, b.length);
    return this;
  }

  /** Length-prefixed ints. */
  public ByteWriter ints(int[] xs) {
    ByteBuffer b = ByteBuffer.allocate(4 * xs.length).order(ByteOrder.LITTLE_ENDIAN);
    b.asIntBuffer().put(xs);
    i32(xs.length);
    out.write(b.array(), 0, b.capacity());
    return this;
  }

  /** Floats without a length (the caller wrote it). */
  public ByteWriter floats(float[] xs) {
    ByteBuffer b = ByteBuffer.allocate(4 * xs.length).order(ByteOrder.LITTLE_ENDIAN);
    b.asFloatBuffer().put(xs);
    out.write(b.array(), 0, b.capacity());
    return this;
  }

  public byte[] toByteArray() {
    return out.toByteArray();
  }
}
