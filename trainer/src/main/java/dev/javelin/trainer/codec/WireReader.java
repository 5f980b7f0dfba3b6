package dev.javelin.trainer.codec;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Bounds-checked little-endian reader: every length is checked against the bytes left before
 * anything is allocated, so a corrupt or hostile message fails with {@link
 * MalformedMessageException} instead of a huge allocation or an index error.
 */
final class WireReader {
  private final ByteBuffer in;
  private final String what;

  WireReader(byte[] bytes, String what) {
    if (bytes == null) {
      throw new MalformedMessageException(what + ": no bytes");
    }
    this.in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    this.what = what;
  }

  int getInt() {
    need(4);
    return in.getInt();
  }

  long getLong() {
    need(8);
    return in.getLong();
  }

  double getDouble() {
    return Double.longBitsToDouble(getLong());
  }

  /** A count of items of at least {@code minBytesEach} bytes each still to come. */
  int getCount(int minBytesEach) {
    int n = getInt();
    if (n < 0 || (long) n * minBytesEach > in.remaining()) {
      throw new MalformedMessageException(
          what + ": count " + n + " does not fit in the " + in.remaining() + " bytes left");
    }
    return n;
  }

  String getString() {
    int n = getCount(1);
    byte[] b = new byte[n];
    in.get(b);
    return new String(b, StandardCharsets.UTF_8);
  }

  int[] getInts() {
    int n = getCount(4);
    int[] a = new int[n];
    in.asIntBuffer().get(a);
    skip(4L * n);
    return a;
  }

  /** A float array or null (length -1). */
  float[] getFloatsOrNull() {
    need(4);
    if (in.getInt(in.position()) == -1) {
      in.getInt();
      return null;
    }
    int n = getCount(4);
    float[] a = new float[n];
    in.asFloatBuffer().get(a);
    skip(4L * n);
    return a;
  }

  double[] getDoubles() {
    int n = getCount(8);
    double[] a = new double[n];
    in.asDoubleBuffer().get(a);
    skip(8L * n);
    return a;
  }

  /** Fails unless every byte was consumed: trailing bytes mean a framing error. */
  void end() {
    if (in.hasRemaining()) {
      throw new MalformedMessageException(what + ": " + in.remaining() + " trailing bytes");
    }
  }

  void expectMagic(int magic) {
    int m = getInt();
    if (m != magic) {
      throw new MalformedMessageException(
          what + ": bad magic 0x" + Integer.toHexString(m) + ", not a " + what + " message");
    }
  }

  private void skip(long n) {
    in.position(in.position() + (int) n);
  }

  private void need(int n) {
    if (in.remaining() < n) {
      throw new MalformedMessageException(
          what + ": truncated, needed " + n + " bytes at offset " + in.position(),
          new BufferUnderflowException());
    }
  }
}
