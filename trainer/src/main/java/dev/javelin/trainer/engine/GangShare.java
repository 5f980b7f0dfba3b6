package dev.javelin.trainer.engine;

import dev.javelin.backend.distributed.CoordinationException;
import dev.javelin.backend.distributed.Gang;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What ranks of a {@link Gang} share beyond gradients: each rank's micro-batch metric sums (merged
 * in rank order, so every rank reports the same numbers) and the π_old rows it took from its
 * forward passes. Encoded as plain length-prefixed binary and bounds-checked on decode.
 */
final class GangShare {
  private static final int MAX_KEY = 1024;

  private GangShare() {}

  /** {@code sums} (key → {sum, count}) summed over the gang's ranks, in rank order. */
  static Map<String, double[]> sums(Gang gang, Map<String, double[]> sums) {
    ByteBuffer b = ByteBuffer.allocate(size(sums));
    b.putInt(sums.size());
    sums.forEach(
        (k, v) -> {
          byte[] key = k.getBytes(StandardCharsets.UTF_8);
          b.putShort((short) key.length).put(key).putDouble(v[0]).putDouble(v[1]);
        });
    Map<String, double[]> out = new TreeMap<>();
    List<byte[]> parts = gang.allGather(b.array());
    for (int r = 0; r < parts.size(); r++) {
      try {
        ByteBuffer p = ByteBuffer.wrap(parts.get(r));
        int n = count(p, 4 + 16);
        for (int i = 0; i < n; i++) {
          int len = Short.toUnsignedInt(p.getShort());
          if (len > MAX_KEY || len > p.remaining()) {
            throw new BufferUnderflowException();
          }
          byte[] key = new byte[len];
          p.get(key);
          double[] acc =
              out.computeIfAbsent(new String(key, StandardCharsets.UTF_8), x -> new double[2]);
          acc[0] += p.getDouble();
          acc[1] += p.getDouble();
        }
      } catch (BufferUnderflowException e) {
        throw malformed(r, "metric sums");
      }
    }
    return out;
  }

  /**
   * Every rank's rows of {@code taken} (index into the update's sample order → π_old), merged;
   * indices are checked against {@code samples}.
   */
  static Map<Integer, double[]> rows(Gang gang, Map<Integer, double[]> taken, int samples) {
    int bytes = 4;
    for (double[] v : taken.values()) {
      bytes += 8 + 8 * v.length;
    }
    ByteBuffer b = ByteBuffer.allocate(bytes);
    b.putInt(taken.size());
    taken.forEach(
        (i, v) -> {
          b.putInt(i).putInt(v.length);
          for (double x : v) {
            b.putDouble(x);
          }
        });
    Map<Integer, double[]> out = new TreeMap<>();
    List<byte[]> parts = gang.allGather(b.array());
    for (int r = 0; r < parts.size(); r++) {
      try {
        ByteBuffer p = ByteBuffer.wrap(parts.get(r));
        int n = count(p, 8);
        for (int k = 0; k < n; k++) {
          int i = p.getInt();
          int len = p.getInt();
          if (i < 0 || i >= samples || len < 0 || len > p.remaining() / 8) {
            throw new BufferUnderflowException();
          }
          double[] v = new double[len];
          p.asDoubleBuffer().get(v);
          p.position(p.position() + 8 * len);
          out.put(i, v);
        }
      } catch (BufferUnderflowException e) {
        throw malformed(r, "π_old rows");
      }
    }
    return out;
  }

  private static int count(ByteBuffer p, int minEach) {
    int n = p.getInt();
    if (n < 0 || n > p.remaining() / minEach + 1) {
      throw new BufferUnderflowException();
    }
    return n;
  }

  private static int size(Map<String, double[]> sums) {
    int n = 4;
    for (String k : sums.keySet()) {
      int len = k.getBytes(StandardCharsets.UTF_8).length;
      if (len > MAX_KEY) {
        throw new IllegalArgumentException("metric name longer than " + MAX_KEY + " bytes: " + k);
      }
      n += 2 + len + 16;
    }
    return n;
  }

  private static CoordinationException malformed(int rank, String what) {
    return new CoordinationException("rank " + rank + " sent malformed " + what);
  }
}
