package dev.javelin.backend.graph;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The typing rules of {@link GraphBuilder}'s ops: each checks its operands as StableHLO would and
 * gives the result shape, failing with a message that names the op and the operands.
 */
final class ShapeRules {
  private ShapeRules() {}

  /** broadcast_in_dim: operand dim i maps to result dim {@code dims[i]}, in increasing order. */
  static void checkBroadcast(Node x, Shape out, int[] dims) {
    if (dims.length != x.shape().rank()) {
      throw new IllegalArgumentException(
          "broadcast_in_dim needs one target dim per operand dim: " + x + " dims " + str(dims));
    }
    for (int i = 0; i < dims.length; i++) {
      checkAxis(out, dims[i]);
      int from = x.shape().dim(i);
      if ((from != 1 && from != out.dim(dims[i])) || (i > 0 && dims[i] <= dims[i - 1])) {
        throw new IllegalArgumentException(
            "cannot broadcast " + x.shape() + " to " + out + " with dims " + str(dims));
      }
    }
  }

  /** The shape left after reducing {@code dims} ({@code sorted}: the same, ascending). */
  static Shape reduced(Node x, int[] dims, int[] sorted) {
    boolean[] drop = new boolean[x.shape().rank()];
    for (int d : sorted) {
      checkAxis(x.shape(), d);
      if (drop[d]) {
        throw new IllegalArgumentException("reduce dims repeat " + str(dims));
      }
      drop[d] = true;
    }
    int[] out = new int[x.shape().rank() - sorted.length];
    for (int i = 0, j = 0; i < drop.length; i++) {
      if (!drop[i]) {
        out[j++] = x.shape().dim(i);
      }
    }
    return Shape.of(out);
  }

  static Shape transposed(Node x, int[] permutation) {
    int rank = x.shape().rank();
    if (permutation.length != rank) {
      throw new IllegalArgumentException("transpose of " + x.shape() + " by " + str(permutation));
    }
    boolean[] used = new boolean[rank];
    int[] out = new int[rank];
    for (int i = 0; i < rank; i++) {
      checkAxis(x.shape(), permutation[i]);
      if (used[permutation[i]]) {
        throw new IllegalArgumentException("transpose permutation repeats: " + str(permutation));
      }
      used[permutation[i]] = true;
      out[i] = x.shape().dim(permutation[i]);
    }
    return Shape.of(out);
  }

  /** dot_general's result: batch dims, lhs free dims, rhs free dims. */
  static Shape dotGeneral(Node lhs, Node rhs, Op.DotGeneral dims, DType result) {
    int[] lhsBatch = dims.lhsBatch();
    int[] rhsBatch = dims.rhsBatch();
    int[] lhsContract = dims.lhsContract();
    int[] rhsContract = dims.rhsContract();
    requireSameType(lhs, rhs, "dot_general");
    if (result != lhs.dtype() && !(lhs.dtype() == DType.BF16 && result == DType.F32)) {
      throw new IllegalArgumentException(
          "dot_general of "
              + lhs.dtype().mlirName()
              + " operands cannot give "
              + result.mlirName()
              + " (only bf16 operands may give an f32 result)");
    }
    if (lhsBatch.length != rhsBatch.length || lhsContract.length != rhsContract.length) {
      throw new IllegalArgumentException("dot_general dimension lists differ in length");
    }
    for (int i = 0; i < lhsBatch.length; i++) {
      requireEqualDim(lhs, lhsBatch[i], rhs, rhsBatch[i], "batch");
    }
    for (int i = 0; i < lhsContract.length; i++) {
      requireEqualDim(lhs, lhsContract[i], rhs, rhsContract[i], "contracting");
    }
    List<Integer> out = new ArrayList<>();
    for (int d : lhsBatch) {
      out.add(lhs.shape().dim(d));
    }
    addFree(out, lhs.shape(), lhsBatch, lhsContract);
    addFree(out, rhs.shape(), rhsBatch, rhsContract);
    return Shape.of(out.stream().mapToInt(i -> i).toArray());
  }

  static Shape sliced(Node x, int[] start, int[] limit, int[] strides) {
    int rank = x.shape().rank();
    if (start.length != rank || limit.length != rank || strides.length != rank) {
      throw new IllegalArgumentException(
          "slice of rank-" + rank + " needs rank-" + rank + " bounds");
    }
    int[] out = new int[rank];
    for (int i = 0; i < rank; i++) {
      if (start[i] < 0 || limit[i] > x.shape().dim(i) || start[i] > limit[i] || strides[i] < 1) {
        throw new IllegalArgumentException(
            "slice " + str(start) + ":" + str(limit) + " out of " + x.shape());
      }
      out[i] = (limit[i] - start[i] + strides[i] - 1) / strides[i];
    }
    return Shape.of(out);
  }

  static Shape concatenated(int dimension, List<Node> parts) {
    Node first = parts.get(0);
    checkAxis(first.shape(), dimension);
    int[] out = first.shape().dims();
    out[dimension] = 0;
    for (Node p : parts) {
      requireSameType(first, p, "concatenate");
      for (int i = 0; i < out.length; i++) {
        if (i != dimension && p.shape().dim(i) != first.shape().dim(i)) {
          throw new IllegalArgumentException("concatenate shapes differ: " + first + " vs " + p);
        }
      }
      out[dimension] += p.shape().dim(dimension);
    }
    return Shape.of(out);
  }

  static void checkSelect(Node pred, Node onTrue, Node onFalse) {
    if (pred.dtype() != DType.PRED || !pred.shape().equals(onTrue.shape())) {
      throw new IllegalArgumentException(
          "select needs a PRED predicate of shape " + onTrue.shape() + ", got " + pred);
    }
    requireSameShapeAndType(onTrue, onFalse, "select");
  }

  /** Numpy-style broadcast: x's dims align with the trailing dims of {@code out}. */
  static int[] trailingDims(Node x, Shape out) {
    int offset = out.rank() - x.shape().rank();
    if (offset < 0) {
      throw new IllegalArgumentException("cannot broadcast " + x.shape() + " to lower rank " + out);
    }
    int[] dims = new int[x.shape().rank()];
    for (int i = 0; i < dims.length; i++) {
      dims[i] = offset + i;
    }
    return dims;
  }

  /** Table (N, D...) gathered by integer ids S gives S + (D...). */
  static Shape gathered(Node table, Node ids) {
    if (ids.dtype() != DType.I32) {
      throw new IllegalArgumentException("gather ids must be i32, got " + ids);
    }
    int[] t = table.shape().dims();
    int[] s = ids.shape().dims();
    int[] out = Arrays.copyOf(s, s.length + t.length - 1);
    System.arraycopy(t, 1, out, s.length, t.length - 1);
    return Shape.of(out);
  }

  /** Updates S + (D...) scattered by ids S into (rows, D...). */
  static Shape scattered(Node ids, Node updates, int rows) {
    int s = ids.shape().rank();
    int[] u = updates.shape().dims();
    int[] out = new int[u.length - s + 1];
    out[0] = rows;
    System.arraycopy(u, s, out, 1, u.length - s);
    return Shape.of(out);
  }

  static void checkDynamicUpdateSlice(Node operand, Node update, List<Node> starts) {
    requireSameType(operand, update, "dynamic_update_slice");
    requireStarts(operand, starts);
    for (int i = 0; i < operand.shape().rank(); i++) {
      if (update.shape().dim(i) > operand.shape().dim(i)) {
        throw new IllegalArgumentException("update " + update + " larger than " + operand);
      }
    }
  }

  static void checkDynamicSlice(Node operand, List<Node> starts, int[] sizes) {
    requireStarts(operand, starts);
    for (int i = 0; i < sizes.length; i++) {
      if (sizes[i] < 0 || sizes[i] > operand.shape().dim(i)) {
        throw new IllegalArgumentException("dynamic_slice sizes " + str(sizes) + " of " + operand);
      }
    }
  }

  static void checkUpdateSlots(Node operand, Node update, Node index, int axis) {
    requireSameType(operand, update, "update_slots");
    Shape o = operand.shape();
    Shape u = update.shape();
    if (axis < 1 || axis >= o.rank() || u.rank() != o.rank() || u.dim(axis) != 1) {
      throw new IllegalArgumentException(
          "update_slots: update " + u + " must be " + o + " with 1 at axis " + axis);
    }
    for (int i = 0; i < o.rank(); i++) {
      if (i != axis && u.dim(i) != o.dim(i)) {
        throw new IllegalArgumentException("update_slots: update " + u + " does not fit " + o);
      }
    }
    if (index.dtype() != DType.I32 || !index.shape().equals(Shape.of(o.dim(0)))) {
      throw new IllegalArgumentException(
          "update_slots: index must be i32 (" + o.dim(0) + "), got " + index);
    }
  }

  private static void addFree(List<Integer> out, Shape s, int[] batch, int[] contract) {
    for (int d : DotShapes.free(s.rank(), batch, contract)) {
      out.add(s.dim(d));
    }
  }

  private static void requireStarts(Node operand, List<Node> starts) {
    if (starts.size() != operand.shape().rank()) {
      throw new IllegalArgumentException("need one start index per dim of " + operand);
    }
    for (Node s : starts) {
      if (s.dtype() != DType.I32 || s.shape().rank() != 0) {
        throw new IllegalArgumentException("start indices must be i32 scalars, got " + s);
      }
    }
  }

  private static void requireEqualDim(Node a, int da, Node b, int db, String what) {
    checkAxis(a.shape(), da);
    checkAxis(b.shape(), db);
    if (a.shape().dim(da) != b.shape().dim(db)) {
      throw new IllegalArgumentException(
          "dot_general "
              + what
              + " dims differ: "
              + a.shape()
              + "["
              + da
              + "] vs "
              + b.shape()
              + "["
              + db
              + "]");
    }
  }

  static void requireFloating(Node x, String op) {
    if (!x.dtype().isFloating()) {
      throw new IllegalArgumentException(op + " needs a floating operand, got " + x);
    }
  }

  static void requireSameType(Node a, Node b, String op) {
    if (a.dtype() != b.dtype()) {
      throw new IllegalArgumentException(op + " operand types differ: " + a + " vs " + b);
    }
  }

  static void requireSameShapeAndType(Node a, Node b, String op) {
    requireSameType(a, b, op);
    if (!a.shape().equals(b.shape())) {
      throw new IllegalArgumentException(op + " operand shapes differ: " + a + " vs " + b);
    }
  }

  static void checkAxis(Shape s, int axis) {
    if (axis < 0 || axis >= s.rank()) {
      throw new IllegalArgumentException("axis " + axis + " out of range for shape " + s);
    }
  }

  static String str(int[] a) {
    return Arrays.toString(a);
  }
}
