package dev.javelin.backend.checkpoint.gguf;

import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.CheckpointChannels;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Map;

/**
 * An open GGUF file: its metadata, tensor table and tensor data, dequantised to f32 one tensor at a
 * time from a read-only mapping (the file is never copied onto the heap as a whole).
 *
 * <p>Metadata values are {@link String}, {@link Long} (every integer type), {@link Double} (f32 and
 * f64), {@link Boolean} or {@code List<Object>} of those (arrays, possibly nested).
 */
public final class GgufFile implements AutoCloseable {
  private final Path path;
  private final FileChannel channel;
  private final GgufHeader.Parsed header;

  private GgufFile(Path path, FileChannel channel, GgufHeader.Parsed header) {
    this.path = path;
    this.channel = channel;
    this.header = header;
  }

  /** Opens and validates {@code path}; throws {@link GgufException} when it is malformed. */
  public static GgufFile open(Path path) {
    return CheckpointChannels.open(
        path,
        (ch, size) -> {
          // The header sits at the start; anything past 2 GiB is tensor data, mapped per tensor.
          MappedByteBuffer head =
              ch.map(FileChannel.MapMode.READ_ONLY, 0, Math.min(size, Integer.MAX_VALUE));
          return new GgufFile(path, ch, GgufHeader.parse(path, head, size));
        },
        (verb, e) -> new GgufException(path, "cannot " + verb + ": " + e.getMessage(), e));
  }

  public Path path() {
    return path;
  }

  /** GGUF format version (2 or 3). */
  public int version() {
    return header.version();
  }

  /** Every metadata key/value, in file order. */
  public Map<String, Object> metadata() {
    return header.metadata();
  }

  /** Tensor infos by llama.cpp name, in file order. */
  public Map<String, GgufTensorInfo> tensors() {
    return header.tensors();
  }

  public boolean contains(String name) {
    return header.tensors().containsKey(name);
  }

  public GgufTensorInfo info(String name) {
    GgufTensorInfo t = header.tensors().get(name);
    if (t == null) {
      throw new GgufException(path, "has no tensor '" + name + "'");
    }
    return t;
  }

  /** The tensor {@code name} dequantised to f32, in row-major (slowest dimension first) shape. */
  public Tensor.F32 readF32(String name) {
    GgufTensorInfo t = info(name);
    try {
      MappedByteBuffer data = channel.map(FileChannel.MapMode.READ_ONLY, t.offset(), t.bytes());
      data.order(ByteOrder.LITTLE_ENDIAN);
      float[] values = Dequant.toF32(t.type(), data, Math.toIntExact(t.elements()));
      return new Tensor.F32(t.shape(), values);
    } catch (IOException e) {
      throw new GgufException(path, "cannot read tensor '" + name + "': " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    CheckpointChannels.closeQuietly(channel);
  }
}
