package dev.javelin.backend.graph;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.Op.Direction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * VJP rules of the ops that move, sum or index elements. Each is the linear transpose of its op:
 * broadcast ↔ sum, slice ↔ pad (by update-slice into zeros), gather ↔ scatter-add, and so on.
 */
final class StructuralVjp {
  private StructuralVjp() {}

  static void apply(GraphBuilder g, Node y, Node dy, boolean[] need, Node[] out) {
    Op op = y.op();
    Node x = y.input(0);
    if (op instanceof Op.BroadcastInDim b) {
      out[0] = unbroadcast(g, dy, x.shape(), b.dims());
    } else if (op instanceof Op.Reduce r) {
      out[0] = reduce(g, r, y, dy);
    } else if (op instanceof Op.Reshape) {
      out[0] = g.reshape(dy, x.shape());
    } else if (op instanceof Op.Transpose t) {
      out[0] = g.transpose(dy, inverse(t.permutation()));
    } else if (op instanceof Op.DotGeneral d) {
      out[0] = need[0] ? DotVjp.lhs(g, d, y, dy) : null;
      out[1] = need[1] ? DotVjp.rhs(g, d, y, dy) : null;
    } else if (op instanceof Op.Slice s) {
      out[0] = unslice(g, s, x.shape(), dy);
    } else if (op instanceof Op.Concatenate c) {
      int offset = 0;
      for (int i = 0; i < out.length; i++) {
        int size = y.input(i).shape().dim(c.dimension());
        out[i] = need[i] ? g.sliceAxis(dy, c.dimension(), offset, offset + size) : null;
        offset += size;
      }
    } else if (op instanceof Op.DynamicUpdateSlice) {
      Node update = y.input(1);
      List<Node> starts = y.inputs().subList(2, y.inputs().size());
      out[0] = need[0] ? g.dynamicUpdateSlice(dy, g.full(update, 0), starts) : null;
      out[1] = need[1] ? g.dynamicSlice(dy, starts, update.shape().dims()) : null;
    } else if (op instanceof Op.UpdateSlots u) {
      Node update = y.input(1);
      Node index = y.input(2);
      out[0] = need[0] ? g.updateSlots(dy, g.full(update, 0), index, u.axis()) : null;
      out[1] = need[1] ? slotsOf(g, dy, index, u.axis(), update.shape()) : null;
    } else if (op instanceof Op.DynamicSlice) {
      List<Node> starts = y.inputs().subList(1, y.inputs().size());
      out[0] = g.dynamicUpdateSlice(g.full(x, 0), dy, starts);
    } else if (op instanceof Op.Gather) {
      int rows = x.shape().dim(0);
      out[0] = g.scatterAdd(clampIds(g, y.input(1), rows), dy, rows);
    } else if (op instanceof Op.ScatterAdd s) {
      out[1] = need[1] ? gatherInRange(g, y.input(0), dy, s.rows()) : null;
    } else {
      throw new UnsupportedOperationException("no VJP rule for " + y);
    }
  }

  /**
   * The entries of x at index[b] along {@code axis} of each row b, shaped like the update (zero for
   * an out-of-range index): a one-hot mask summed over the axis, as the transpose of the write.
   */
  private static Node slotsOf(GraphBuilder g, Node x, Node index, int axis, Shape update) {
    Shape s = x.shape();
    Node slot = g.iota(DType.I32, s, axis);
    Node at = g.broadcastInDim(index, s, 0);
    Node picked = g.select(g.compare(slot, at, Direction.EQ), x, g.full(x, 0));
    return g.reshape(g.reduceSum(picked, axis), update);
  }

  /** Sums ȳ over the dimensions a broadcast added or stretched, back to the operand shape. */
  static Node unbroadcast(GraphBuilder g, Node dy, Shape operand, int[] dims) {
    Shape out = dy.shape();
    boolean[] kept = new boolean[out.rank()];
    for (int i = 0; i < dims.length; i++) {
      kept[dims[i]] = operand.dim(i) == out.dim(dims[i]);
    }
    int[] sum = indicesWhere(kept, false);
    Node summed = sum.length == 0 ? dy : g.reduceSum(dy, sum);
    return g.reshape(summed, operand);
  }

  private static Node reduce(GraphBuilder g, Op.Reduce r, Node y, Node dy) {
    Node x = y.input(0);
    boolean[] reduced = new boolean[x.shape().rank()];
    for (int d : r.dims()) {
      reduced[d] = true;
    }
    int[] keptDims = indicesWhere(reduced, false);
    return switch (r.kind()) {
      case SUM -> g.broadcastInDim(dy, x.shape(), keptDims);
      case MAX -> {
        // ȳ flows to the arg-max elements, split evenly between ties.
        Node yb = g.broadcastInDim(y, x.shape(), keptDims);
        Node mask = g.convert(g.compare(x, yb, Direction.EQ), x.dtype());
        Node share = g.div(dy, g.reduceSum(mask, r.dims()));
        yield g.mul(mask, g.broadcastInDim(share, x.shape(), keptDims));
      }
    };
  }

  /**
   * The transpose of a slice: ȳ placed back at its positions in a zero tensor of the operand shape.
   * Strided axes are spread first with a scatter-add (axis moved to the front), then one
   * dynamic_update_slice with constant starts places the window.
   */
  private static Node unslice(GraphBuilder g, Op.Slice s, Shape operand, Node dy) {
    Node spread = dy;
    for (int axis = 0; axis < operand.rank(); axis++) {
      if (s.strides()[axis] > 1) {
        spread = spreadAxis(g, spread, axis, s.strides()[axis], s.limit()[axis] - s.start()[axis]);
      }
    }
    if (spread.shape().equals(operand)) {
      return spread;
    }
    List<Node> starts = new ArrayList<>();
    for (int st : s.start()) {
      starts.add(g.constant(st, DType.I32, Shape.scalar()));
    }
    Node zeros = g.constant(0, dy.dtype(), operand);
    return g.dynamicUpdateSlice(zeros, spread, starts);
  }

  /** Puts element i of {@code axis} at position i·stride of a zero axis of length {@code span}. */
  private static Node spreadAxis(GraphBuilder g, Node x, int axis, int stride, int span) {
    int rank = x.shape().rank();
    int[] toFront = new int[rank];
    toFront[0] = axis;
    for (int i = 1, d = 0; i < rank; d++) {
      if (d != axis) {
        toFront[i++] = d;
      }
    }
    Node front = g.transpose(x, toFront);
    Shape idsShape = Shape.of(x.shape().dim(axis));
    Node ids =
        g.mul(g.iota(DType.I32, idsShape, 0), g.constant(stride, DType.I32, idsShape)); // (m)
    Node scattered = g.scatterAdd(ids, front, span);
    return g.transpose(scattered, inverse(toFront));
  }

  /** Gather ids clamped into [0, rows) so the gradient lands where the clamped gather read. */
  private static Node clampIds(GraphBuilder g, Node ids, int rows) {
    Node lo = g.constant(0, DType.I32, ids.shape());
    Node hi = g.constant(rows - 1, DType.I32, ids.shape());
    return g.max(g.min(ids, hi), lo);
  }

  /** The transpose of scatter-add: gathered rows, zeroed where the scatter skipped the id. */
  private static Node gatherInRange(GraphBuilder g, Node ids, Node dy, int rows) {
    Node gathered = g.gather(dy, ids); // S + (D...)
    Node geZero = g.compare(ids, g.constant(0, DType.I32, ids.shape()), Direction.GE);
    Node ltRows = g.compare(ids, g.constant(rows, DType.I32, ids.shape()), Direction.LT);
    Node inRange = g.mul(g.convert(geZero, dy.dtype()), g.convert(ltRows, dy.dtype())); // S
    int[] dims = new int[ids.shape().rank()];
    Arrays.setAll(dims, i -> i);
    return g.mul(gathered, g.broadcastInDim(inRange, gathered.shape(), dims));
  }

  static int[] inverse(int[] permutation) {
    int[] inv = new int[permutation.length];
    for (int i = 0; i < permutation.length; i++) {
      inv[permutation[i]] = i;
    }
    return inv;
  }

  private static int[] indicesWhere(boolean[] flags, boolean value) {
    int n = 0;
    for (boolean f : flags) {
      n += f == value ? 1 : 0;
    }
    int[] out = new int[n];
    for (int i = 0, j = 0; i < flags.length; i++) {
      if (flags[i] == value) {
        out[j++] = i;
      }
    }
    return out;
  }
}
