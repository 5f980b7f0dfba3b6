package dev.javelin.backend.checkpoint.gguf;

import dev.javelin.backend.StrictUtf8;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses a GGUF header (v2/v3, little-endian): magic, version, metadata key/values, tensor infos
 * and the aligned start of the tensor data. Every count, length and offset is checked against the
 * bytes that remain before anything is allocated for it.
 */
final class GgufHeader {
  static final int MAGIC = 0x46554747; // "GGUF" read as a little-endian u32
  static final long DEFAULT_ALIGNMENT = 32;
  private static final int MAX_ARRAY_DEPTH = 8;
  private static final long MAX_ARRAY_ELEMENTS = 1L << 24;
  private static final int MAX_DIMS = 4;

  private final Path file;
  private final ByteBuffer buf;
  private final long fileSize;

  /** Parsed result: metadata values are String, Long, Double, Boolean or List of those. */
  record Parsed(
      int version,
      Map<String, Object> metadata,
      Map<String, GgufTensorInfo> tensors,
      long dataStart) {}

  private GgufHeader(Path file, ByteBuffer buf, long fileSize) {
    this.file = file;
    this.buf = buf.order(ByteOrder.LITTLE_ENDIAN);
    this.fileSize = fileSize;
  }

  /** Parses the header held at the start of {@code buf}; {@code fileSize} bounds the data. */
  static Parsed parse(Path file, ByteBuffer buf, long fileSize) {
    return new GgufHeader(file, buf, fileSize).parse();
  }

  private Parsed parse() {
    need(4, "magic");
    if (buf.getInt() != MAGIC) {
      throw fail("not a GGUF file (bad magic)");
    }
    need(4, "version");
    int version = buf.getInt();
    if (version != 2 && version != 3) {
      throw fail("GGUF version " + version + " is not supported (2 or 3)");
    }
    long tensorCount = u64("tensor count");
    long kvCount = u64("metadata count");
    // a key/value needs at least a key length (8) and a type (4); a tensor info 8+4+4+8 bytes
    count(kvCount, 12, "metadata count");
    Map<String, Object> meta = new LinkedHashMap<>();
    for (long i = 0; i < kvCount; i++) {
      String key = string("metadata key");
      int type = u32("type of '" + key + "'");
      if (meta.put(key, value(type, key, 0)) != null) {
        throw fail("duplicate metadata key '" + key + "'");
      }
    }
    count(tensorCount, 24, "tensor count");
    List<long[]> raw = new ArrayList<>();
    List<String> names = new ArrayList<>();
    List<GgmlType> types = new ArrayList<>();
    for (long i = 0; i < tensorCount; i++) {
      names.add(string("tensor name"));
      raw.add(tensorEntry(names.get(names.size() - 1), types));
    }
    long alignment = alignment(meta);
    long dataStart = alignUp(buf.position(), alignment);
    Map<String, GgufTensorInfo> tensors = new LinkedHashMap<>();
    for (int i = 0; i < names.size(); i++) {
      GgufTensorInfo t = tensorInfo(names.get(i), raw.get(i), types.get(i), dataStart, alignment);
      if (tensors.put(t.name(), t) != null) {
        throw fail("duplicate tensor '" + t.name() + "'");
      }
    }
    return new Parsed(
        version,
        Collections.unmodifiableMap(meta),
        Collections.unmodifiableMap(tensors),
        dataStart);
  }

  /** Reads dims, type and relative offset; returns dims followed by the offset. */
  private long[] tensorEntry(String name, List<GgmlType> types) {
    int nDims = u32("dimension count of '" + name + "'");
    if (nDims < 1 || nDims > MAX_DIMS) {
      throw fail("tensor '" + name + "' has " + nDims + " dimensions (1.." + MAX_DIMS + ")");
    }
    long[] out = new long[nDims + 1];
    for (int d = 0; d < nDims; d++) {
      out[d] = u64("dimension of '" + name + "'");
      if (out[d] <= 0 || out[d] > Integer.MAX_VALUE) {
        throw fail("tensor '" + name + "' has dimension " + Long.toUnsignedString(out[d]));
      }
    }
    int typeId = u32("type of tensor '" + name + "'");
    GgmlType type = GgmlType.byId(typeId);
    if (type == null) {
      throw fail("tensor '" + name + "' has ggml type " + typeId + ", which is not supported");
    }
    types.add(type);
    out[nDims] = u64("offset of '" + name + "'");
    return out;
  }

  private GgufTensorInfo tensorInfo(
      String name, long[] raw, GgmlType type, long dataStart, long alignment) {
    long[] dims = java.util.Arrays.copyOf(raw, raw.length - 1);
    long rel = raw[raw.length - 1];
    long elements = 1;
    for (long d : dims) {
      // each dimension is below 2^31, so once past the array limit the next product cannot overflow
      elements = Math.min(elements * d, Long.MAX_VALUE / Integer.MAX_VALUE);
    }
    if (elements > Integer.MAX_VALUE - 8) {
      throw fail("tensor '" + name + "' has " + elements + " elements (too many for one array)");
    }
    if (dims[0] % type.blockElements() != 0) {
      throw fail(
          "tensor '"
              + name
              + "' row length "
              + dims[0]
              + " is not a multiple of the "
              + type
              + " block size "
              + type.blockElements());
    }
    long bytes = elements / type.blockElements() * type.blockBytes();
    if (rel < 0 || rel % alignment != 0) {
      throw fail("tensor '" + name + "' offset " + Long.toUnsignedString(rel) + " is not aligned");
    }
    if (rel > fileSize - dataStart || bytes > fileSize - dataStart - rel) {
      throw fail(
          "tensor '"
              + name
              + "' data ("
              + bytes
              + " bytes at "
              + rel
              + ") runs past the end of the file ("
              + fileSize
              + " bytes)");
    }
    return new GgufTensorInfo(name, dims, type, dataStart + rel, bytes);
  }

  private long alignment(Map<String, Object> meta) {
    Object a = meta.get("general.alignment");
    if (a == null) {
      return DEFAULT_ALIGNMENT;
    }
    if (!(a instanceof Long v) || v <= 0 || v > 1 << 20 || Long.bitCount(v) != 1) {
      throw fail("general.alignment must be a power of two up to 1 MiB, got " + a);
    }
    return v;
  }

  private static long alignUp(long pos, long alignment) {
    return (pos + alignment - 1) / alignment * alignment;
  }

  private Object value(int type, String key, int depth) {
    return switch (type) {
      case 0 -> {
        need(1, key);
        yield (long) (buf.get() & 0xFF);
      }
      case 1 -> {
        need(1, key);
        yield (long) buf.get();
      }
      case 2 -> {
        need(2, key);
        yield (long) (buf.getShort() & 0xFFFF);
      }
      case 3 -> {
        need(2, key);
        yield (long) buf.getShort();
      }
      case 4 -> {
        need(4, key);
        yield buf.getInt() & 0xFFFFFFFFL;
      }
      case 5 -> {
        need(4, key);
        yield (long) buf.getInt();
      }
      case 6 -> {
        need(4, key);
        yield (double) buf.getFloat();
      }
      case 7 -> bool(key);
      case 8 -> string(key);
      case 9 -> array(key, depth);
      case 10, 11 -> {
        need(8, key);
        yield buf.getLong();
      }
      case 12 -> {
        need(8, key);
        yield buf.getDouble();
      }
      default -> throw fail("metadata '" + key + "' has unknown value type " + type);
    };
  }

  private Boolean bool(String key) {
    need(1, key);
    int b = buf.get();
    if (b != 0 && b != 1) {
      throw fail("metadata '" + key + "' is a bool with byte value " + b);
    }
    return b == 1;
  }

  private List<Object> array(String key, int depth) {
    if (depth >= MAX_ARRAY_DEPTH) {
      throw fail("metadata '" + key + "' nests arrays deeper than " + MAX_ARRAY_DEPTH);
    }
    int elemType = u32("array type of '" + key + "'");
    long n = u64("array length of '" + key + "'");
    if (n > MAX_ARRAY_ELEMENTS) {
      throw fail("metadata '" + key + "' has " + Long.toUnsignedString(n) + " elements");
    }
    count(n, minBytes(elemType), "array length of '" + key + "'");
    List<Object> out = new ArrayList<>((int) n);
    for (long i = 0; i < n; i++) {
      out.add(value(elemType, key, depth + 1));
    }
    return Collections.unmodifiableList(out);
  }

  /** Fewest bytes one value of the type takes, so a count can be checked before allocating. */
  private static int minBytes(int type) {
    return switch (type) {
      case 0, 1, 7 -> 1;
      case 2, 3 -> 2;
      case 4, 5, 6 -> 4;
      case 8, 10, 11, 12 -> 8;
      case 9 -> 12;
      default -> 1;
    };
  }

  private String string(String what) {
    long len = u64(what + " length");
    if (len < 0 || len > buf.remaining()) {
      throw fail(what + " length " + Long.toUnsignedString(len) + " runs past the header");
    }
    byte[] b = new byte[(int) len];
    buf.get(b);
    return StrictUtf8.decode(b, 0, b.length).orElseThrow(() -> fail(what + " is not valid UTF-8"));
  }

  private int u32(String what) {
    need(4, what);
    int v = buf.getInt();
    if (v < 0) {
      throw fail(what + " is " + Integer.toUnsignedString(v));
    }
    return v;
  }

  private long u64(String what) {
    need(8, what);
    return buf.getLong();
  }

  private void count(long n, int minBytesEach, String what) {
    if (n < 0 || n > buf.remaining() / Math.max(1, minBytesEach)) {
      throw fail(what + " " + Long.toUnsignedString(n) + " exceeds what the file can hold");
    }
  }

  private void need(int bytes, String what) {
    if (buf.remaining() < bytes) {
      throw fail("truncated header while reading " + what);
    }
  }

  private GgufException fail(String problem) {
    return new GgufException(file, problem);
  }
}
