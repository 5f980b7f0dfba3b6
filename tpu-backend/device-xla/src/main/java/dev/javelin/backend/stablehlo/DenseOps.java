package dev.javelin.backend.stablehlo;

import static dev.javelin.backend.stablehlo.FunctionBody.dims;
import static dev.javelin.backend.stablehlo.FunctionBody.functionalType;
import static dev.javelin.backend.stablehlo.FunctionBody.scalarType;
import static dev.javelin.backend.stablehlo.FunctionBody.type;

import dev.javelin.backend.DType;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op;

/**
 * Lowers the ops that compute whole tensors from whole tensors: constants, iota, elementwise math,
 * comparisons, conversions, broadcasts, reductions, layout changes and matrix products. Each method
 * appends exactly the StableHLO op named in the {@link Op} record's javadoc.
 */
final class DenseOps {
  private DenseOps() {}

  /** A splat {@code dense<v>} constant: MLIR stores it once whatever the shape. */
  static void constant(Node n, Op.Constant c, FunctionBody f) {
    f.line(
        f.name(n)
            + " = stablehlo.constant dense<"
            + MlirLiterals.of(c.value(), n.dtype())
            + "> : "
            + type(n));
  }

  static void iota(Node n, Op.Iota op, FunctionBody f) {
    f.line(f.name(n) + " = stablehlo.iota dim = " + op.dimension() + " : " + type(n));
  }

  static void unary(Node n, Op.Unary op, FunctionBody f) {
    elementwise(n, op.kind().mlir(), f);
  }

  static void binary(Node n, Op.Binary op, FunctionBody f) {
    elementwise(n, op.kind().mlir(), f);
  }

  /** The comparison type follows the operand type: FLOAT, SIGNED (i32) or UNSIGNED (i1). */
  static void compare(Node n, Op.Compare op, FunctionBody f) {
    String compareType =
        switch (n.input(0).dtype()) {
          case F32, BF16, F64 -> "FLOAT";
          case I32 -> "SIGNED";
          case PRED -> "UNSIGNED";
        };
    f.line(
        String.format(
            "%s = stablehlo.compare %s, %s, %s : %s",
            f.name(n), op.direction().name(), f.operands(n), compareType, functionalType(n)));
  }

  static void select(Node n, FunctionBody f) {
    withOperands(n, "stablehlo.select", f);
  }

  static void convert(Node n, FunctionBody f) {
    withOperands(n, "stablehlo.convert", f);
  }

  static void broadcastInDim(Node n, Op.BroadcastInDim op, FunctionBody f) {
    withAttribute(n, "stablehlo.broadcast_in_dim", "dims = " + dims(op.dims()), f);
  }

  /**
   * {@code stablehlo.reduce} with its identity as the init value and the combiner written as the
   * short {@code applies} form of a one-op region.
   */
  static void reduce(Node n, Op.Reduce op, FunctionBody f) {
    DType dtype = n.dtype();
    if (dtype == DType.PRED) {
      throw new IllegalArgumentException("cannot lower a reduce over i1 values: " + n);
    }
    String init = f.fresh("init");
    String identity =
        op.kind() == Op.ReduceKind.SUM ? MlirLiterals.of(0, dtype) : MlirLiterals.lowest(dtype);
    String scalar = scalarType(dtype);
    f.line(init + " = stablehlo.constant dense<" + identity + "> : " + scalar);
    String combiner = op.kind() == Op.ReduceKind.SUM ? "stablehlo.add" : "stablehlo.maximum";
    f.line(
        String.format(
            "%s = stablehlo.reduce(%s init: %s) applies %s across dimensions = %s : (%s, %s) -> %s",
            f.name(n),
            f.name(n.input(0)),
            init,
            combiner,
            dims(op.dims()),
            type(n.input(0)),
            scalar,
            type(n)));
  }

  static void reshape(Node n, FunctionBody f) {
    withOperands(n, "stablehlo.reshape", f);
  }

  static void transpose(Node n, Op.Transpose op, FunctionBody f) {
    withAttribute(n, "stablehlo.transpose", "dims = " + dims(op.permutation()), f);
  }

  /**
   * Batching dims are omitted when empty, as the StableHLO printer does. An f32 node over bf16
   * operands prints as bf16 operand types with an f32 result type, which is how StableHLO asks for
   * f32 accumulation.
   */
  static void dotGeneral(Node n, Op.DotGeneral op, FunctionBody f) {
    StringBuilder sb = new StringBuilder();
    sb.append(f.name(n)).append(" = stablehlo.dot_general ").append(f.operands(n));
    if (op.lhsBatch().length > 0) {
      sb.append(", batching_dims = ")
          .append(dims(op.lhsBatch()))
          .append(" x ")
          .append(dims(op.rhsBatch()));
    }
    sb.append(", contracting_dims = ")
        .append(dims(op.lhsContract()))
        .append(" x ")
        .append(dims(op.rhsContract()))
        .append(" : ")
        .append(functionalType(n));
    f.line(sb.toString());
  }

  static void concatenate(Node n, Op.Concatenate op, FunctionBody f) {
    withAttribute(n, "stablehlo.concatenate", "dim = " + op.dimension(), f);
  }

  /** {@code %n = <op> <operands> : <type>}: operands and result of one type. */
  private static void elementwise(Node n, String op, FunctionBody f) {
    f.line(f.name(n) + " = " + op + " " + f.operands(n) + " : " + type(n));
  }

  /** {@code %n = <op> <operands> : (<operand types>) -> <type>}. */
  private static void withOperands(Node n, String op, FunctionBody f) {
    f.line(f.name(n) + " = " + op + " " + f.operands(n) + " : " + functionalType(n));
  }

  /** {@code %n = <op> <operands>, <attribute> : (<operand types>) -> <type>}. */
  private static void withAttribute(Node n, String op, String attribute, FunctionBody f) {
    f.line(
        String.format(
            "%s = %s %s, %s : %s", f.name(n), op, f.operands(n), attribute, functionalType(n)));
  }
}
