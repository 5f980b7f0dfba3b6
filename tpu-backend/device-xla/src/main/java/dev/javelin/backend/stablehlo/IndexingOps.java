package dev.javelin.backend.stablehlo;

import static dev.javelin.backend.stablehlo.FunctionBody.dims;
import static dev.javelin.backend.stablehlo.FunctionBody.functionalType;
import static dev.javelin.backend.stablehlo.FunctionBody.i64Array;
import static dev.javelin.backend.stablehlo.FunctionBody.scalarType;
import static dev.javelin.backend.stablehlo.FunctionBody.type;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
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
   * {@link Op.UpdateSlots} as a scatter: indices (B, 2) = [b, index[b]] address dimensions 0 and
   * the axis, both inserted window dims, so each update row, reshaped without them, is one window.
   * XLA drops an update whose index is out of bounds, which is the op's contract for such rows.
   */
  static void updateSlots(Node n, Op.UpdateSlots op, FunctionBody f) {
    Node update = n.input(1);
    int b = n.shape().dim(0);
    int rank = n.shape().rank();
    String pair = Shape.of(b, 2).mlirType(DType.I32);
    String ids = slotIndices(b, n.input(2), f);
    String windows = windowsType(n, op.axis());
    String rowsOf = f.fresh("upd");
    f.line(
        rowsOf
            + " = stablehlo.reshape "
            + f.name(update)
            + " : ("
            + type(update)
            + ") -> "
            + windows);
    String scalar = scalarType(n.dtype());
    String old = f.fresh("old");
    String fresh = f.fresh("new");
    f.line(
        f.name(n)
            + " = \"stablehlo.scatter\"("
            + f.name(n.input(0))
            + ", "
            + ids
            + ", "
            + rowsOf
            + ") ({");
    f.regionLine("^bb0(" + old + ": " + scalar + ", " + fresh + ": " + scalar + "):");
    f.regionLine("  stablehlo.return " + fresh + " : " + scalar);
    f.line(
        "}) {indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<"
            + "update_window_dims = "
            + dims(IntStream.rangeClosed(1, rank - 2).toArray())
            + ", inserted_window_dims = [0, "
            + op.axis()
            + "], scatter_dims_to_operand_dims = [0, "
            + op.axis()
            + "], index_vector_dim = 1>, unique_indices = true} : ("
            + type(n)
            + ", "
            + pair
            + ", "
            + windows
            + ") -> "
            + type(n));
  }

  /** The (B, 2) scatter indices [b, index[b]] of {@code index} (B,). */
  private static String slotIndices(int b, Node index, FunctionBody f) {
    String col = Shape.of(b, 1).mlirType(DType.I32);
    String at = f.fresh("at");
    String rows = f.fresh("rows");
    String ids = f.fresh("ids");
    f.line(at + " = stablehlo.reshape " + f.name(index) + " : (" + type(index) + ") -> " + col);
    f.line(rows + " = stablehlo.iota dim = 0 : " + col);
    f.line(
        ids
            + " = stablehlo.concatenate "
            + rows
            + ", "
            + at
            + ", dim = 1 : ("
            + col
            + ", "
            + col
            + ") -> "
            + Shape.of(b, 2).mlirType(DType.I32));
    return ids;
  }

  /** The type of the update rows as windows: (B, the update's dims but 0 and the axis). */
  private static String windowsType(Node n, int axis) {
    Node update = n.input(1);
    int rank = n.shape().rank();
    int[] window = new int[rank - 2];
    for (int i = 1, w = 0; i < rank; i++) {
      if (i != axis) {
        window[w++] = update.shape().dim(i);
      }
    }
    return Shape.of(
            IntStream.concat(IntStream.of(n.shape().dim(0)), IntStream.of(window)).toArray())
        .mlirType(n.dtype());
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
