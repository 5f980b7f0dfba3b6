package dev.javelin.sampler.codec;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Bounds-checked little-endian reader for bytes that may come from another process: every length is
 * checked against what is left before anything is allocated.
 */
public final class ByteReader {
  private static final int MAX_STRING_BYTES = 1 << 16;
  private final ByteBuffer in;

  public ByteReader(byte[] bytes) {
    this.in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  public int i32() {
    need(4, "an int");
    return in.getInt();
  }

  public long i64() {
    need(8, "a long");
    return in.getLong();
  }

  public double f64() {
    return Double.longBitsToDouble(i64());
  }

  public int u8() {
    need(1, "a byte");
    return in.get() & 0xFF;
  }

  /** A count of items each at least {@code minBytes} long, checked against what is left. */
  public int count(int minBytes, String what) {
    int n = i32();
    if (n < 0 || (long) n * minBytes > in.remaining()) {
      throw new MalformedBytesException(
          "implausible " + what + " count " + n + " with " + in.remaining() + " bytes left");
    }
    return n;
  }

  public String string(String what) {
    int n = i32();
    if (n < 0 || n > MAX_STRING_BYTES) {
      throw new MalformedBytesException(what + " of " + n + " bytes is out of range");
    }
    need(n, what);
    byte[] b = new byte[n];
    in.get(b);
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b))
          .toString();
    } catch (CharacterCodingException e) {
      throw new MalformedBytesException(what + " is not valid UTF-8", e);
    }
  }

  public int[] ints(String what) {
    int n = count(4, what);
    int[] out = new int[n];
    in.asIntBuffer().get(out);
    in.position(in.position() + 4 * n);
    return out;
  }

  public float[] floats(int n, String what) {
    if (n < 0) {
      throw new MalformedBytesException("negative " + what + " length " + n);
    }
    need(4L * n, what);
    float[] out = new float[n];
    in.asFloatBuffer().get(out);
    in.position(in.position() + 4 * n);
    return out;
  }

  /** Fails unless every byte was consumed: trailing garbage means a format mismatch. */
  public void end() {
    if (in.hasRemaining()) {
      throw new MalformedBytesException(in.remaining() + " unexpected trailing bytes");
    }
  }

  private void need(long n, String what) {
    if (in.remaining() < n) {
      throw new MalformedBytesException(
          "truncated: " + what + " needs " + n + " bytes, " + in.remaining() + " left",
          new BufferUnderflowException());
    }
  }
}
