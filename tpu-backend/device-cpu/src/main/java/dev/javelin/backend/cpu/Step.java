package dev.javelin.backend.cpu;

import dev.javelin.backend.DType;
import dev.javelin.backend.graph.Op.BinaryKind;
import dev.javelin.backend.graph.Op.Direction;
import dev.javelin.backend.graph.Op.UnaryKind;

/**
 * One node of a fused elementwise expression, evaluated a block of flat indices at a time. Operand
 * fields are indices of earlier steps of the same {@link BlockProgram}; {@code value} fields are
 * positions of materialised values in the frame.
 */
sealed interface Step {

  DType dtype();

  /** A materialised value read at the block's own flat indices (no copy). */
  record Load(DType dtype, int value) implements Step {}

  /** A materialised value read through an affine map (broadcast, transpose, slice). */
  record View(DType dtype, int value, StridedView view) implements Step {}

  /** A constant; its scratch block is filled once when the scratch is made. */
  record Fill(DType dtype, double constant) implements Step {}

  /** {@code (flat / stride) % size}: the coordinate along one dimension. */
  record Iota(DType dtype, int stride, int size) implements Step {}

  record Unary(DType dtype, UnaryKind kind, int a) implements Step {}

  record Binary(DType dtype, BinaryKind kind, int a, int b) implements Step {}

  /** {@code operandType} is the type of a and b; the result is PRED. */
  record Compare(Direction direction, DType operandType, int a, int b) implements Step {
    @Override
    public DType dtype() {
      return DType.PRED;
    }
  }

  record Select(DType dtype, int pred, int onTrue, int onFalse) implements Step {}

  record Convert(DType dtype, DType from, int a) implements Step {}
}
