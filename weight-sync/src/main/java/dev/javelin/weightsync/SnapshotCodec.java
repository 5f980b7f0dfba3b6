package dev.javelin.weightsync;

import dev.javelin.weightsync.wire.MalformedWireException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The byte form of a snapshot for transports that move bytes (the Ray object store): a small
 * header, then the payload. Little-endian throughout. Reading is bounds-checked because the bytes
 * may come from another process: every length is validated before it is used, and nothing is
 * deserialised reflectively.
 *
 * <pre>
 * "JVWS" u32 format=1 | i64 version | i64 checksum | i32 count
 * count × { i32 nameLen, name UTF-8, u8 type, i32 rank, i32 dims[rank], i64 offset }
 * i64 payloadLen | payload
 * </pre>
 */
public final class SnapshotCodec {
  private static final int MAGIC = 0x53575654; // "JVWS" read little-endian
  private static final int FORMAT = 1;
  private static final int MAX_TENSORS = 1 << 20;
  private static final int MAX_NAME_BYTES = 4096;
  private static final int MAX_RANK = 8;

  private SnapshotCodec() {}

  private static final int CHECKSUM_OFFSET = 16;

  /** The byte form of a snapshot: a read-only view of the buffer it was built in (no copy). */
  public static ByteBuffer encode(WeightSnapshot s) {
    return s.encoded();
  }

  /**
   * The byte form as a plain array, for transports that store arrays: the array the snapshot was
   * decoded from when it fills it exactly (no copy of a model-sized buffer; callers must not modify
   * it), else a copy.
   */
  public static byte[] toArray(WeightSnapshot s) {
    byte[] whole = s.wholeArray();
    if (whole != null) {
      return whole;
    }
    ByteBuffer encoded = s.encoded();
    byte[] out = new byte[encoded.remaining()];
    encoded.get(out);
    return out;
  }

  static int headerSize(List<TensorEntry> entries) {
    long header = 4 + 4 + 8 + 8 + 4 + 8;
    for (TensorEntry e : entries) {
      header += 4 + utf8Length(e.name()) + 1 + 4 + 4L * e.shape().length + 8;
    }
    return Math.toIntExact(header);
  }

  static void writeHeader(
      ByteBuffer out, long version, long checksum, List<TensorEntry> entries, long payloadLen) {
    out.putInt(MAGIC).putInt(FORMAT).putLong(version).putLong(checksum);
    out.putInt(entries.size());
    for (TensorEntry e : entries) {
      byte[] name = e.name().getBytes(StandardCharsets.UTF_8);
      out.putInt(name.length).put(name).put((byte) e.type().code());
      out.putInt(e.shape().length);
      for (int d : e.shape()) {
        out.putInt(d);
      }
      out.putLong(e.offset());
    }
    out.putLong(payloadLen);
  }

  static void patchChecksum(ByteBuffer out, long checksum) {
    out.putLong(CHECKSUM_OFFSET, checksum);
  }

  private static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  /**
   * Decodes bytes written by {@link #encode}. The payload is a zero-copy slice of {@code bytes}.
   * The checksum is carried over, not verified: receivers verify it.
   *
   * @throws MalformedWireException when the bytes are not a well-formed snapshot
   */
  public static WeightSnapshot decode(ByteBuffer bytes) {
    ByteBuffer in = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    try {
      if (in.getInt() != MAGIC) {
        throw new MalformedWireException("not a Javelin weight snapshot (bad magic)");
      }
      int format = in.getInt();
      if (format != FORMAT) {
        throw new MalformedWireException("unsupported snapshot format " + format);
      }
      long version = in.getLong();
      long checksum = in.getLong();
      List<TensorEntry> entries = readEntries(in);
      long payloadLen = in.getLong();
      if (payloadLen < 0 || payloadLen != in.remaining()) {
        throw new MalformedWireException(
            "payload length " + payloadLen + " but " + in.remaining() + " bytes remain");
      }
      int payloadOffset = in.position() - bytes.position();
      ByteBuffer whole = bytes.slice().order(ByteOrder.LITTLE_ENDIAN);
      return new WeightSnapshot(version, entries, whole, payloadOffset, checksum);
    } catch (BufferUnderflowException e) {
      throw new MalformedWireException("snapshot bytes end early", e);
    } catch (MalformedWireException e) {
      throw e;
    } catch (IllegalArgumentException e) { // a header value an entry refuses (shape, type)
      throw new MalformedWireException(e.getMessage(), e);
    }
  }

  private static List<TensorEntry> readEntries(ByteBuffer in) {
    int count = in.getInt();
    if (count < 0 || count > MAX_TENSORS) {
      throw new MalformedWireException("implausible tensor count " + count);
    }
    List<TensorEntry> entries = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int nameLen = in.getInt();
      if (nameLen < 0 || nameLen > MAX_NAME_BYTES || nameLen > in.remaining()) {
        throw new MalformedWireException("bad name length " + nameLen + " for tensor " + i);
      }
      byte[] name = new byte[nameLen];
      in.get(name);
      int type = in.get();
      WireType wireType = WireType.ofCode(type);
      if (wireType == null) {
        throw new MalformedWireException("bad element type " + type + " for tensor " + i);
      }
      int rank = in.getInt();
      if (rank < 0 || rank > MAX_RANK) {
        throw new MalformedWireException("bad rank " + rank + " for tensor " + i);
      }
      int[] shape = new int[rank];
      for (int d = 0; d < rank; d++) {
        shape[d] = in.getInt();
      }
      String n = new String(name, StandardCharsets.UTF_8);
      entries.add(new TensorEntry(n, wireType, shape, in.getLong()));
    }
    return entries;
  }
}
