package dev.javelin.backend.graph;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The cotangent contributions of each node, summed when first read. Contributions from slices that
 * tile the node along one axis (each a window placed into zeros by the slice's VJP) are joined by
 * one concatenate instead of a sum of full-size zero tensors: a value read in k chunks (a chunked
 * LM head's hidden states, its weight's vocabulary blocks) gets one cotangent of its own size, not
 * k of them.
 */
final class Cotangents {
  private final GraphBuilder g;
  private final Map<Node, List<Node>> parts = new HashMap<>();
  private final Map<Node, Node> summed = new HashMap<>();

  Cotangents(GraphBuilder g) {
    this.g = g;
  }

  void add(Node x, Node dx) {
    if (summed.containsKey(x)) {
      throw new IllegalStateException("cotangent of " + x + " grew after it was read");
    }
    parts.computeIfAbsent(x, k -> new ArrayList<>()).add(dx);
  }

  /** The summed cotangent of {@code x}, or null when nothing flows into it. */
  Node get(Node x) {
    Node done = summed.get(x);
    if (done != null || !parts.containsKey(x)) {
      return done;
    }
    List<Node> terms = new ArrayList<>();
    List<Placed> placed = new ArrayList<>();
    for (Node dx : parts.get(x)) {
      Placed p = Placed.of(dx);
      if (p == null) {
        terms.add(dx);
      } else {
        placed.add(p);
      }
    }
    if (placed.size() > 1 && concatenated(x.shape(), x.dtype(), placed, terms)) {
      placed.clear();
    }
    placed.forEach(p -> terms.add(p.node()));
    Node sum = terms.get(0);
    for (int i = 1; i < terms.size(); i++) {
      sum = g.add(sum, terms.get(i));
    }
    summed.put(x, sum);
    return sum;
  }

  /** A window {@code piece} at constant {@code start} in zeros: the VJP of a slice. */
  private record Placed(Node node, Node piece, int[] start) {
    static Placed of(Node n) {
      if (!(n.op() instanceof Op.DynamicUpdateSlice)
          || !(n.input(0).op() instanceof Op.Constant c)
          || c.value() != 0) {
        return null;
      }
      int rank = n.shape().rank();
      int[] start = new int[rank];
      for (int i = 0; i < rank; i++) {
        if (!(n.input(2 + i).op() instanceof Op.Constant s)) {
          return null;
        }
        start[i] = (int) s.value();
      }
      return new Placed(n, n.input(1), start);
    }
  }

  /**
   * Adds to {@code terms} the pieces joined along the one axis they split, zeros in the gaps, and
   * each piece that overlaps an earlier one as it is; false (nothing added) when they do not all
   * split the same single axis.
   */
  private boolean concatenated(Shape shape, DType dtype, List<Placed> placed, List<Node> terms) {
    int axis = -1;
    for (Placed p : placed) {
      for (int d = 0; d < shape.rank(); d++) {
        if (p.piece().shape().dim(d) != shape.dim(d)) {
          if (axis >= 0 && axis != d) {
            return false;
          }
          axis = d;
        }
      }
    }
    if (axis < 0) {
      return false;
    }
    int a = axis;
    List<Placed> sorted = new ArrayList<>(placed);
    sorted.sort(Comparator.comparingInt(p -> p.start()[a]));
    List<Node> pieces = new ArrayList<>();
    int at = 0;
    for (Placed p : sorted) {
      int from = p.start()[a];
      if (from < at) {
        terms.add(p.node()); // overlaps a window already placed: added as it is
        continue;
      }
      if (from > at) {
        pieces.add(zeros(shape, dtype, a, from - at));
      }
      pieces.add(p.piece());
      at = from + p.piece().shape().dim(a);
    }
    if (at < shape.dim(a)) {
      pieces.add(zeros(shape, dtype, a, shape.dim(a) - at));
    }
    terms.add(pieces.size() == 1 ? pieces.get(0) : g.concatenate(a, pieces));
    return true;
  }

  private Node zeros(Shape shape, DType dtype, int axis, int size) {
    int[] dims = shape.dims();
    dims[axis] = size;
    return g.constant(0, dtype, Shape.of(dims));
  }
}
