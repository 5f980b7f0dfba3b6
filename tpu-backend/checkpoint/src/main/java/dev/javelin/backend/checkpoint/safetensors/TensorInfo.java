package dev.javelin.backend.checkpoint.safetensors;

import dev.javelin.backend.Shape;

/**
 * One header entry: name, stored type, shape and the byte range {@code [begin, end)} relative to
 * the start of the data section.
 */
public record TensorInfo(String name, StorageType type, Shape shape, long begin, long end) {
  public TensorInfo {
    if (name == null || name.isEmpty()) {
      throw new SafetensorsException("tensor name must be non-empty");
    }
    if (begin < 0 || end < begin) {
      throw new SafetensorsException(
          "tensor '" + name + "' has bad data_offsets [" + begin + ", " + end + "]");
    }
    long expected = Math.multiplyExact(shape.size(), type.byteSize());
    if (end - begin != expected) {
      throw new SafetensorsException(
          "tensor '"
              + name
              + "' "
              + type
              + shape
              + " needs "
              + expected
              + " bytes but data_offsets span "
              + (end - begin));
    }
  }

  public long byteLength() {
    return end - begin;
  }
}
