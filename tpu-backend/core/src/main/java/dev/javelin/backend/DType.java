package dev.javelin.backend;

/**
 * Element types of tensors in programs. Compute is f32 or bf16 (f64 for reference checks); i32
 * carries token ids and indices; {@code PRED} is the boolean result of comparisons.
 *
 * <p>bf16 is a compute type: every op whose result is bf16 rounds it to nearest even once, on every
 * device (the {@code ref} device computes in double and rounds, the {@code cpu} device in f32 and
 * rounds). Mixed precision is explicit in the graph: a {@code convert} between f32 and bf16, and a
 * {@code dot_general} of bf16 operands may have an f32 result, accumulating in f32. On the host a
 * bf16 tensor is a {@link Tensor.BF16}: floats already rounded to bf16.
 */
public enum DType {
  F32("f32", 4),
  BF16("bf16", 2),
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
    return this == F32 || this == F64 || this == BF16;
  }
}
