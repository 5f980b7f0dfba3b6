package dev.javelin.backend.checkpoint.safetensors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.CheckpointChannels;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A safetensors file opened for reading: an 8-byte little-endian header length, a JSON header
 * naming each tensor's dtype, shape and byte range, then the raw little-endian data. Every header
 * field is bounds-checked against the file before any data is read, so a truncated or hostile file
 * fails with a message instead of reading out of range.
 */
public final class SafetensorsFile implements AutoCloseable {
  /** The same cap as the reference implementation: headers beyond 100 MB are refused. */
  static final long MAX_HEADER_BYTES = 100L << 20;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path path;
  private final FileChannel channel;
  private final long dataStart;
  private final Map<String, TensorInfo> tensors;
  private final Map<String, String> metadata;

  private SafetensorsFile(
      Path path,
      FileChannel channel,
      long dataStart,
      Map<String, TensorInfo> tensors,
      Map<String, String> metadata) {
    this.path = path;
    this.channel = channel;
    this.dataStart = dataStart;
    this.tensors = tensors;
    this.metadata = metadata;
  }

  /** Opens and validates the header of {@code path}. */
  public static SafetensorsFile open(Path path) {
    return CheckpointChannels.open(
        path,
        (ch, size) -> parse(path, ch, size),
        (verb, e) ->
            new SafetensorsException("cannot " + verb + " safetensors file " + path + ": " + e, e));
  }

  private static SafetensorsFile parse(Path path, FileChannel ch, long size) throws IOException {
    if (size < 8) {
      throw new SafetensorsException(path + ": file of " + size + " bytes has no header");
    }
    long headerLen = readFully(ch, 0, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
    if (headerLen < 2 || headerLen > MAX_HEADER_BYTES || headerLen > size - 8) {
      throw new SafetensorsException(
          path + ": header length " + headerLen + " is out of range for a file of " + size);
    }
    ByteBuffer hb = readFully(ch, 8, (int) headerLen);
    byte[] headerBytes = new byte[(int) headerLen];
    hb.get(headerBytes);
    String header = new String(headerBytes, StandardCharsets.UTF_8);
    long dataLen = size - 8 - headerLen;
    Map<String, String> meta = new LinkedHashMap<>();
    Map<String, TensorInfo> infos = parseHeader(path, header, dataLen, meta);
    return new SafetensorsFile(
        path,
        ch,
        8 + headerLen,
        Collections.unmodifiableMap(infos),
        Collections.unmodifiableMap(meta));
  }

  private static Map<String, TensorInfo> parseHeader(
      Path path, String header, long dataLen, Map<String, String> meta) {
    JsonNode root;
    try {
      root = JSON.readTree(header);
    } catch (JsonProcessingException e) {
      throw new SafetensorsException(
          path + ": header is not valid JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new SafetensorsException(path + ": header must be a JSON object");
    }
    Map<String, TensorInfo> infos = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : root.properties()) {
      if (e.getKey().equals("__metadata__")) {
        readMetadata(path, e.getValue(), meta);
        continue;
      }
      TensorInfo info = parseEntry(path, e.getKey(), e.getValue());
      if (info.end() > dataLen) {
        throw new SafetensorsException(
            path
                + ": tensor '"
                + info.name()
                + "' ends at byte "
                + info.end()
                + " past the data section of "
                + dataLen
                + " bytes (truncated file?)");
      }
      infos.put(info.name(), info);
    }
    return infos;
  }

  private static TensorInfo parseEntry(Path path, String name, JsonNode entry) {
    JsonNode dtype = entry.get("dtype");
    JsonNode shape = entry.get("shape");
    JsonNode offsets = entry.get("data_offsets");
    if (dtype == null
        || !dtype.isTextual()
        || shape == null
        || !shape.isArray()
        || offsets == null
        || !offsets.isArray()
        || offsets.size() != 2) {
      throw new SafetensorsException(
          path + ": tensor '" + name + "' needs dtype, shape and two data_offsets");
    }
    int[] dims = new int[shape.size()];
    for (int i = 0; i < dims.length; i++) {
      JsonNode d = shape.get(i);
      if (!d.canConvertToInt() || d.asInt() < 0) {
        throw new SafetensorsException(path + ": tensor '" + name + "' has bad shape " + shape);
      }
      dims[i] = d.asInt();
    }
    for (JsonNode o : offsets) {
      if (!o.isIntegralNumber() || !o.canConvertToLong()) {
        throw new SafetensorsException(path + ": tensor '" + name + "' has bad data_offsets");
      }
    }
    StorageType type = StorageType.fromHeader(dtype.asText(), name);
    try {
      return new TensorInfo(
          name, type, Shape.of(dims), offsets.get(0).asLong(), offsets.get(1).asLong());
    } catch (ArithmeticException e) {
      throw new SafetensorsException(path + ": tensor '" + name + "' is too large", e);
    }
  }

  private static void readMetadata(Path path, JsonNode node, Map<String, String> meta) {
    if (!node.isObject()) {
      throw new SafetensorsException(path + ": __metadata__ must be an object of strings");
    }
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      meta.put(e.getKey(), e.getValue().asText());
    }
  }

  public Path path() {
    return path;
  }

  /** Header entries in file order. */
  public Map<String, TensorInfo> tensors() {
    return tensors;
  }

  public Map<String, String> metadata() {
    return metadata;
  }

  public boolean contains(String name) {
    return tensors.containsKey(name);
  }

  public TensorInfo info(String name) {
    TensorInfo info = tensors.get(name);
    if (info == null) {
      throw new SafetensorsException(path + " has no tensor '" + name + "'");
    }
    return info;
  }

  /**
   * Reads one tensor: floating types as {@link Tensor.F32} (bf16/f16 widened exactly, f64 rounded),
   * integer types as {@link Tensor.I32} (i64 values must fit).
   */
  public Tensor read(String name) {
    TensorInfo info = info(name);
    if (info.byteLength() > Integer.MAX_VALUE) {
      throw new SafetensorsException(path + ": tensor '" + name + "' is over 2 GiB");
    }
    ByteBuffer buf;
    try {
      buf = readFully(channel, dataStart + info.begin(), (int) info.byteLength());
    } catch (IOException e) {
      throw new UncheckedIOException("reading '" + name + "' from " + path, e);
    }
    buf.order(ByteOrder.LITTLE_ENDIAN);
    return TensorCodec.decode(info, buf);
  }

  /** Reads a floating tensor as f32. */
  public Tensor.F32 readF32(String name) {
    Tensor t = read(name);
    if (t instanceof Tensor.F32 f) {
      return f;
    }
    throw new SafetensorsException(path + ": tensor '" + name + "' is not floating");
  }

  private static ByteBuffer readFully(FileChannel ch, long position, int length)
      throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(length);
    long pos = position;
    while (buf.hasRemaining()) {
      int n = ch.read(buf, pos);
      if (n < 0) {
        throw new SafetensorsException("unexpected end of file at byte " + pos);
      }
      pos += n;
    }
    buf.flip();
    return buf;
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
