package dev.javelin.backend.checkpoint.gguf;

/**
 * The ggml tensor element types this reader dequantises: id as stored in the file, elements per
 * block and bytes per block.
 */
public enum GgmlType {
  F32(0, 1, 4),
  F16(1, 1, 2),
  Q4_0(2, 32, 18),
  Q4_1(3, 32, 20),
  Q5_0(6, 32, 22),
  Q8_0(8, 32, 34),
  Q4_K(12, 256, 144),
  Q5_K(13, 256, 176),
  Q6_K(14, 256, 210),
  BF16(30, 1, 2);

  private final int id;
  private final int blockElements;
  private final int blockBytes;

  GgmlType(int id, int blockElements, int blockBytes) {
    this.id = id;
    this.blockElements = blockElements;
    this.blockBytes = blockBytes;
  }

  public int id() {
    return id;
  }

  public int blockElements() {
    return blockElements;
  }

  public int blockBytes() {
    return blockBytes;
  }

  /** The type with file id {@code id}, or null when this reader does not support it. */
  public static GgmlType byId(long id) {
    for (GgmlType t : values()) {
      if (t.id == id) {
        return t;
      }
    }
    return null;
  }
}
