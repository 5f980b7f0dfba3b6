package dev.javelin.backend.checkpoint.safetensors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.javelin.backend.Tensor;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes safetensors files. Float tensors are stored as F32 or BF16 (round to nearest even), int
 * tensors as I32. The file appears atomically: it is written beside the target and moved into
 * place, so a crash never leaves a half-written checkpoint under the real name.
 */
public final class SafetensorsWriter {
  private static final ObjectMapper JSON = new ObjectMapper();

  private SafetensorsWriter() {}

  /**
   * Writes {@code tensors} in map iteration order.
   *
   * @param floatType {@link StorageType#F32} or {@link StorageType#BF16}
   */
  public static void write(
      Path path,
      Map<String, ? extends Tensor> tensors,
      StorageType floatType,
      Map<String, String> metadata) {
    if (floatType != StorageType.F32 && floatType != StorageType.BF16) {
      throw new IllegalArgumentException("floatType must be F32 or BF16, got " + floatType);
    }
    ObjectNode header = JSON.createObjectNode();
    if (!metadata.isEmpty()) {
      ObjectNode meta = header.putObject("__metadata__");
      metadata.forEach(meta::put);
    }
    List<byte[]> blobs = new ArrayList<>();
    long offset = 0;
    for (Map.Entry<String, ? extends Tensor> e : tensors.entrySet()) {
      Tensor t = e.getValue();
      StorageType type = t instanceof Tensor.I32 ? StorageType.I32 : floatType;
      byte[] blob = TensorCodec.encode(t, type);
      ObjectNode entry = header.putObject(e.getKey());
      entry.put("dtype", type.headerName());
      ArrayNode shape = entry.putArray("shape");
      for (int d : t.shape().dims()) {
        shape.add(d);
      }
      entry.putArray("data_offsets").add(offset).add(offset + blob.length);
      offset += blob.length;
      blobs.add(blob);
    }
    writeAtomically(path, headerBytes(header), blobs);
  }

  public static void write(
      Path path, Map<String, ? extends Tensor> tensors, StorageType floatType) {
    write(path, tensors, floatType, Map.of());
  }

  /** The JSON header padded with spaces to a multiple of 8 bytes, as the format recommends. */
  private static byte[] headerBytes(ObjectNode header) {
    String json;
    try {
      json = JSON.writeValueAsString(header);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise safetensors header", e);
    }
    byte[] raw = json.getBytes(StandardCharsets.UTF_8);
    int padded = (raw.length + 7) & ~7;
    byte[] out = new byte[padded];
    System.arraycopy(raw, 0, out, 0, raw.length);
    for (int i = raw.length; i < padded; i++) {
      out[i] = ' ';
    }
    return out;
  }

  private static void writeAtomically(Path path, byte[] header, List<byte[]> blobs) {
    Path abs = path.toAbsolutePath();
    Path tmp = abs.resolveSibling(abs.getFileName() + ".tmp");
    try {
      Files.createDirectories(abs.getParent());
      try (OutputStream out = Files.newOutputStream(tmp)) {
        out.write(
            ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(header.length).array());
        out.write(header);
        for (byte[] b : blobs) {
          out.write(b);
        }
      }
      Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write safetensors file " + path, e);
    }
  }
}
