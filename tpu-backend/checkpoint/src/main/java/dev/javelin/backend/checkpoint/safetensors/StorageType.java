package dev.javelin.backend.checkpoint.safetensors;

import java.util.Locale;

/**
 * Element types as stored in a safetensors file. Floats widen to f32 on load (compute is f32);
 * integers load as i32. bf16 is the usual on-disk format of released checkpoints.
 */
public enum StorageType {
  F32(4),
  BF16(2),
  F16(2),
  F64(8),
  I32(4),
  I64(8);

  private final int byteSize;

  StorageType(int byteSize) {
    this.byteSize = byteSize;
  }

  public int byteSize() {
    return byteSize;
  }

  public boolean isFloating() {
    return this == F32 || this == BF16 || this == F16 || this == F64;
  }

  /** The name in the safetensors header, e.g. {@code BF16}. */
  public String headerName() {
    return name();
  }

  /** Parses a header dtype name; fails naming the tensor for types we do not read. */
  public static StorageType fromHeader(String name, String tensor) {
    try {
      return valueOf(name.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new SafetensorsException(
          "tensor '"
              + tensor
              + "' has unsupported dtype '"
              + name
              + "' (F32, BF16, F16, F64, I32, I64)",
          e);
    }
  }
}
