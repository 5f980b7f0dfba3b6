package dev.javelin.backend.distributed;

import java.nio.ByteBuffer;

/**
 * All-reduce sums through the store for one rank. The arrays of a call are one virtual sequence of
 * N elements, cut into chunks that fit a frame; rank r posts chunk c of collective s under {@code
 * ar/s/r/c} as {@code [N:int64][c:int32][elements]}, then every rank reads chunk c of ranks 0, 1,
 * ... and adds them in that order. An all-gather ({@link #gather}) shares the sequence numbers. A
 * rank's parts of collective s - 1 are deleted once s completes: by then every rank has posted s,
 * so has finished reading s - 1.
 */
final class ArrayReduce {
  private static final int HEADER = Long.BYTES + Integer.BYTES;
  private static final int KEY_ROOM = 64; // frame bytes kept for the op, key length and key

  private final CoordinationClient client;
  private long seq;
  private int ownChunks; // chunks this rank posted in collective seq - 1 (not yet deleted)
  private String ownPrefix = "ar/"; // and that collective's kind

  ArrayReduce(CoordinationClient client) {
    this.client = client;
  }

  void floats(float[][] arrays) {
    run(new Elements(arrays));
  }

  void doubles(double[][] arrays) {
    run(new Elements(arrays));
  }

  private void run(Elements e) {
    long n = e.total();
    int perChunk = Math.max(1, (client.maxFrame() - KEY_ROOM - HEADER) / e.bytes());
    int chunks = (int) Math.max(1, (n + perChunk - 1) / perChunk);
    long s = seq;
    int rank = client.rank();
    for (int c = 0; c < chunks; c++) {
      long from = (long) c * perChunk;
      int len = (int) Math.min(perChunk, n - from);
      ByteBuffer b = ByteBuffer.allocate(HEADER + len * e.bytes());
      b.putLong(n).putInt(c);
      e.write(b, from, len);
      client.set(key(s, rank, c), b.array());
    }
    for (int c = 0; c < chunks; c++) {
      long from = (long) c * perChunk;
      int len = (int) Math.min(perChunk, n - from);
      e.zero(from, len);
      for (int r = 0; r < client.size(); r++) {
        e.add(part(s, r, c, n, len * e.bytes()), from, len);
      }
    }
    forgetOwnParts();
    ownChunks = chunks;
    ownPrefix = "ar/";
    seq++;
  }

  /**
   * Every rank's {@code part}, in rank order: the same list on every rank. One frame each, so a
   * part must fit the frame limit with its key.
   */
  java.util.List<byte[]> gather(byte[] part) {
    long s = seq;
    client.set("ag/" + s + "/" + client.rank() + "/0", part);
    java.util.List<byte[]> out = new java.util.ArrayList<>();
    for (int r = 0; r < client.size(); r++) {
      try {
        out.add(client.get("ag/" + s + "/" + r + "/0", client.timeout()));
      } catch (CoordinationException ex) {
        throw new CoordinationException(
            "rank " + r + " posted no part of all-gather " + s + " (" + ex.getMessage() + ")", ex);
      }
    }
    forgetOwnParts();
    ownChunks = 1;
    ownPrefix = "ag/";
    seq++;
    return out;
  }

  /** Deletes this rank's parts of the last completed collective but one. */
  void forgetOwnParts() {
    for (int c = 0; c < ownChunks && seq > 0; c++) {
      client.delete(ownPrefix + (seq - 1) + "/" + client.rank() + "/" + c);
    }
    ownChunks = 0;
  }

  private ByteBuffer part(long s, int r, int c, long n, int bytes) {
    String key = key(s, r, c);
    byte[] v;
    try {
      v = client.get(key, client.timeout());
    } catch (CoordinationException ex) {
      throw new CoordinationException(
          "rank " + r + " posted no part of all-reduce " + s + " (" + ex.getMessage() + ")", ex);
    }
    ByteBuffer b = ByteBuffer.wrap(v);
    if (v.length != HEADER + bytes || b.getLong() != n || b.getInt() != c) {
      throw new CoordinationException(
          "rank "
              + r
              + "'s part '"
              + key
              + "' does not match this rank's all-reduce of "
              + n
              + " elements: the ranks passed arrays of different lengths");
    }
    return b;
  }

  private static String key(long s, int r, int c) {
    return "ar/" + s + "/" + r + "/" + c;
  }

  /**
   * The float[] or double[] arrays of one call seen as one sequence. One class for both element
   * types: only the element reads and writes differ, and {@code put}, {@code zero} and {@code add}
   * branch on the array type for those.
   */
  private static final class Elements {
    private final Object[] arrays;
    private final int bytes;
    private final int[] lengths;
    private final long total;

    Elements(float[][] arrays) {
      this(arrays, Float.BYTES);
    }

    Elements(double[][] arrays) {
      this(arrays, Double.BYTES);
    }

    private Elements(Object[] arrays, int bytes) {
      this.arrays = arrays;
      this.bytes = bytes;
      lengths = new int[arrays.length];
      long n = 0;
      for (int i = 0; i < arrays.length; i++) {
        lengths[i] = java.lang.reflect.Array.getLength(arrays[i]);
        n += lengths[i];
      }
      total = n;
    }

    long total() {
      return total;
    }

    int bytes() {
      return bytes;
    }

    /** Calls {@code f(array, offset, count)} for each piece of [from, from + len). */
    private void pieces(long from, int len, Piece f) {
      long start = 0;
      int left = len;
      for (int a = 0; a < lengths.length && left > 0; a++) {
        long end = start + lengths[a];
        if (from < end) {
          int off = (int) (from - start);
          int k = (int) Math.min(left, end - from);
          f.run(a, off, k);
          from += k;
          left -= k;
        }
        start = end;
      }
    }

    /** Puts elements [from, from + len) into {@code b}. */
    void write(ByteBuffer b, long from, int len) {
      pieces(from, len, (a, off, k) -> put(b, arrays[a], off, k));
    }

    /** Sets elements [from, from + len) to zero. */
    void zero(long from, int len) {
      pieces(from, len, (a, off, k) -> zero(arrays[a], off, k));
    }

    /** Adds the next {@code len} elements of {@code b} to elements [from, from + len). */
    void add(ByteBuffer b, long from, int len) {
      pieces(from, len, (a, off, k) -> add(b, arrays[a], off, k));
    }

    private static void put(ByteBuffer b, Object array, int off, int k) {
      if (array instanceof float[] x) {
        b.asFloatBuffer().put(x, off, k);
        b.position(b.position() + k * Float.BYTES);
      } else {
        b.asDoubleBuffer().put((double[]) array, off, k);
        b.position(b.position() + k * Double.BYTES);
      }
    }

    private static void zero(Object array, int off, int k) {
      if (array instanceof float[] x) {
        java.util.Arrays.fill(x, off, off + k, 0f);
      } else {
        java.util.Arrays.fill((double[]) array, off, off + k, 0d);
      }
    }

    private static void add(ByteBuffer b, Object array, int off, int k) {
      if (array instanceof float[] x) {
        for (int j = off; j < off + k; j++) {
          x[j] += b.getFloat();
        }
      } else {
        double[] x = (double[]) array;
        for (int j = off; j < off + k; j++) {
          x[j] += b.getDouble();
        }
      }
    }
  }

  @FunctionalInterface
  private interface Piece {
    void run(int array, int offset, int count);
  }
}
