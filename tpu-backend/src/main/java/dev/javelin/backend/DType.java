package dev.javelin.backend;

/**
 * Element types of tensors in programs. Compute is f32 (f64 for reference checks); i32 carries
 * token ids and indices; {@code PRED} is the boolean result of comparisons. bf16 is a storage
 * format only (safetensors, weight transfer) and is widened to f32 on load.
 */
public enum DType {
  F32("f32", 4),
  F64("f64", 8),
  I32("i32", 4),
  PRED("i1", 1);

  private final String mlirName;
  private final int byteSize;

  DType(String mlirName, int byteSize) {
    this.mlirName = mlirName;
    this.byteSize = byteSize;
  }

  /** The element type as written in StableHLO/MLIR text, e.g. {@code f32}, {@code i1}. */
  public String mlirName() {
    return mlirName;
  }

  public int byteSize() {
    return byteSize;
  }

  public boolean isFloating() {
    return this == F32 || this == F64;
  }
}
