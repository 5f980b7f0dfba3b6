package dev.javelin.weightsync.wire;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Bounds-checked little-endian reader for bytes that may come from another process: every length is
 * checked against the bytes left before anything is allocated, so a corrupt or hostile message
 * fails with {@link MalformedWireException} instead of a huge allocation or an index error.
 */
public final class WireReader {
  private static final int MAX_STRING_BYTES = 1 << 16;
  private final ByteBuffer in;
  private final String what;

  /**
   * @param what names the message kind in errors ("rollout", "trainer message", ...)
   */
  public WireReader(byte[] bytes, String what) {
    if (bytes == null) {
      throw new MalformedWireException(what + ": no bytes");
    }
    this.in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    this.what = what;
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
  public int count(int minBytes, String item) {
    int n = i32();
    if (n < 0 || (long) n * minBytes > in.remaining()) {
      throw new MalformedWireException(
          what
              + ": "
              + item
              + " count "
              + n
              + " does not fit in the "
              + in.remaining()
              + " bytes left");
    }
    return n;
  }

  /** Length-prefixed UTF-8 of at most 64 KiB; invalid UTF-8 is an error, not replaced. */
  public String string(String item) {
    int n = i32();
    if (n < 0 || n > MAX_STRING_BYTES) {
      throw new MalformedWireException(what + ": " + item + " of " + n + " bytes is out of range");
    }
    need(n, item);
    byte[] b = new byte[n];
    in.get(b);
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b))
          .toString();
    } catch (CharacterCodingException e) {
      throw new MalformedWireException(what + ": " + item + " is not valid UTF-8", e);
    }
  }

  /** Length-prefixed ints. */
  public int[] ints(String item) {
    int n = count(4, item);
    int[] out = new int[n];
    in.asIntBuffer().get(out);
    in.position(in.position() + 4 * n);
    return out;
  }

  /** {@code n} floats without a length prefix (the caller read it). */
  public float[] floats(int n, String item) {
    if (n < 0) {
      throw new MalformedWireException(what + ": negative " + item + " length " + n);
    }
    need(4L * n, item);
    float[] out = new float[n];
    in.asFloatBuffer().get(out);
    in.position(in.position() + 4 * n);
    return out;
  }

  /** Length-prefixed floats, or null for the length -1. */
  public float[] floatsOrNull(String item) {
    need(4, item);
    if (in.getInt(in.position()) == -1) {
      in.getInt();
      return null;
    }
    return floats(count(4, item), item);
  }

  /** Length-prefixed doubles. */
  public double[] doubles(String item) {
    int n = count(8, item);
    double[] out = new double[n];
    in.asDoubleBuffer().get(out);
    in.position(in.position() + 8 * n);
    return out;
  }

  /** Fails unless the next int is {@code magic}: the bytes are some other kind of message. */
  public void expectMagic(int magic) {
    int m = i32();
    if (m != magic) {
      throw new MalformedWireException(
          what + ": bad magic 0x" + Integer.toHexString(m) + ", not a " + what + " message");
    }
  }

  /** Fails unless every byte was consumed: trailing bytes mean a framing error. */
  public void end() {
    if (in.hasRemaining()) {
      throw new MalformedWireException(what + ": " + in.remaining() + " unexpected trailing bytes");
    }
  }

  private void need(long n, String item) {
    if (n > in.remaining()) {
      throw new MalformedWireException(
          what
              + ": truncated, "
              + item
              + " needs "
              + n
              + " bytes at offset "
              + in.position()
              + ", "
              + in.remaining()
              + " left");
    }
  }
}
