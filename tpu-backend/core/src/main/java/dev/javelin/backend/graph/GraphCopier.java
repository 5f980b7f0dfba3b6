package dev.javelin.backend.graph;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Copies nodes of one graph into another builder, with some nodes bound to replacements (typically
 * parameters of the new program). Unbound parameters cannot be copied: every value the copy needs
 * from outside must be bound explicitly.
 */
final class GraphCopier {
  private final GraphBuilder target;
  private final Map<Node, Node> map = new HashMap<>();

  GraphCopier(GraphBuilder target) {
    this.target = target;
  }

  /** Makes {@code from} stand for {@code to} in every later copy. */
  void bind(Node from, Node to) {
    if (!from.shape().equals(to.shape()) || from.dtype() != to.dtype()) {
      throw new IllegalArgumentException("cannot bind " + from + " to " + to);
    }
    map.put(from, to);
  }

  /** Binds every parameter of {@code program} to a new parameter of the target, in order. */
  void bindParameters(Program program) {
    for (Node p : program.parameters()) {
      bind(p, target.parameter(((Op.Parameter) p.op()).name(), p.dtype(), p.shape()));
    }
  }

  Node copy(Node n) {
    Node done = map.get(n);
    if (done != null) {
      return done;
    }
    for (Node m : unmappedAncestors(n)) {
      if (m.op() instanceof Op.Parameter p) {
        throw new IllegalStateException("parameter '" + p.name() + "' is not bound in the copy");
      }
      List<Node> inputs = new ArrayList<>(m.inputs().size());
      for (Node in : m.inputs()) {
        inputs.add(map.get(in));
      }
      Node c = target.add(m.op(), inputs, m.shape(), m.dtype());
      if (m.gradientStopped()) {
        c.stopGradient();
      }
      if (m.batchMajor()) {
        c.markBatchMajor();
      }
      copySegment(m, c);
      map.put(m, c);
    }
    return map.get(n);
  }

  List<Node> copyAll(List<Node> nodes) {
    List<Node> out = new ArrayList<>(nodes.size());
    for (Node n : nodes) {
      out.add(copy(n));
    }
    return out;
  }

  /** Ancestors of {@code n} (itself included) not yet copied, in topological order. */
  private List<Node> unmappedAncestors(Node n) {
    return Autodiff.ancestors(List.of(n), map.keySet());
  }

  /** Copies {@code from}'s segment to {@code to} (graph copies keep the recomputation layout). */
  private static void copySegment(Node from, Node to) {
    to.setSegment(from.kept() ? Node.KEPT : from.segment());
  }
}
