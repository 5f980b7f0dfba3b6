package dev.javelin.backend.stablehlo;

import static dev.javelin.backend.stablehlo.FunctionBody.dims;
import static dev.javelin.backend.stablehlo.FunctionBody.functionalType;
import static dev.javelin.backend.stablehlo.FunctionBody.i64Array;
import static dev.javelin.backend.stablehlo.FunctionBody.scalarType;
import static dev.javelin.backend.stablehlo.FunctionBody.type;

import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op;
import java.util.stream.IntStream;

/**
 * Lowers the ops that address parts of tensors: static and dynamic slices, dynamic updates (the KV
 * cache), and the embedding gather with its transpose, scatter-add. Gather and scatter use the
 * generic op form with explicit dimension numbers.
 */
final class IndexingOps {
  private IndexingOps() {}

  static void slice(Node n, Op.Slice op, FunctionBody f) {
    f.line(
        f.name(n)
            + " = \"stablehlo.slice\"("
            + f.operands(n)
            + ") {start_indices = "
            + i64Array(op.start())
            + ", limit_indices = "
            + i64Array(op.limit())
            + ", strides = "
            + i64Array(op.strides())
            + "} : "
            + functionalType(n));
  }

  /** Operand, then one i32 scalar start per dimension; XLA clamps starts like the graph does. */
  static void dynamicSlice(Node n, Op.DynamicSlice op, FunctionBody f) {
    f.line(
        f.name(n)
            + " = stablehlo.dynamic_slice "
            + f.operands(n)
            + ", sizes = "
            + dims(op.sizes())
            + " : "
            + functionalType(n));
  }

  static void dynamicUpdateSlice(Node n, FunctionBody f) {
    f.line(
        f.name(n)
            + " = stablehlo.dynamic_update_slice "
            + f.operands(n)
            + " : "
            + functionalType(n));
  }

  /**
   * Row gather: ids of rank s index dimension 0 of a (N, D...) table. The index vector dimension is
   * s (one past the last ids dimension), so each id is a 1-vector; the row dimension collapses and
   * the D dims follow the ids dims in the result. StableHLO clamps each start into [0, N - 1].
   */
  static void gather(Node n, FunctionBody f) {
    Node table = n.input(0);
    int s = n.input(1).shape().rank();
    int[] sliceSizes = table.shape().dims();
    sliceSizes[0] = 1;
    int[] offsetDims = IntStream.range(s, s + table.shape().rank() - 1).toArray();
    f.line(
        f.name(n)
            + " = \"stablehlo.gather\"("
            + f.operands(n)
            + ") {dimension_numbers = #stablehlo.gather<offset_dims = "
            + dims(offsetDims)
            + ", collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = "
            + s
            + ">, indices_are_sorted = false, slice_sizes = "
            + i64Array(sliceSizes)
            + "} : "
            + functionalType(n));
  }

  /**
   * Scatter-add of update rows into a zero (rows, D...) table, the transpose of {@link #gather}.
   * Out-of-range ids are dropped, as {@code stablehlo.scatter} (and the reference device) does.
   */
  static void scatterAdd(Node n, FunctionBody f) {
    Node ids = n.input(0);
    Node updates = n.input(1);
    int s = ids.shape().rank();
    String zeros = f.fresh("zeros");
    f.line(
        zeros + " = stablehlo.constant dense<" + MlirLiterals.of(0, n.dtype()) + "> : " + type(n));
    String scalar = scalarType(n.dtype());
    String lhs = f.fresh("lhs");
    String rhs = f.fresh("rhs");
    String sum = f.fresh("sum");
    int[] windowDims = IntStream.range(s, updates.shape().rank()).toArray();
    f.line(
        f.name(n)
            + " = \"stablehlo.scatter\"("
            + zeros
            + ", "
            + f.name(ids)
            + ", "
            + f.name(updates)
            + ") ({");
    f.regionLine("^bb0(" + lhs + ": " + scalar + ", " + rhs + ": " + scalar + "):");
    f.regionLine("  " + sum + " = stablehlo.add " + lhs + ", " + rhs + " : " + scalar);
    f.regionLine("  stablehlo.return " + sum + " : " + scalar);
    f.line(
        "}) {indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<"
            + "update_window_dims = "
            + dims(windowDims)
            + ", inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = "
            + s
            + ">, unique_indices = false} : ("
            + type(n)
            + ", "
            + type(ids)
            + ", "
            + type(updates)
            + ") -> "
            + type(n));
  }
}
