package dev.javelin.backend.graph;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import java.util.ArrayList;
import java.util.List;

/** Builds {@link Loop#step}: one iteration of a loop over its whole state. */
final class LoopStep {
  private LoopStep() {}

  static Program build(Loop loop) {
    Program body = loop.body();
    List<Node> params = body.parameters();
    GraphBuilder g = new GraphBuilder(loop.name() + ".step");
    Node i = g.parameter("i", DType.I32, Shape.scalar());
    List<Node> carries = new ArrayList<>();
    for (int c = 0; c < loop.carried(); c++) {
      carries.add(g.parameter("carry" + c, params.get(c).dtype(), params.get(c).shape()));
    }
    List<Node> ys = new ArrayList<>();
    for (int r = loop.carried(); r < loop.results(); r++) {
      ys.add(g.parameter("ys" + r, loop.dtype(r), loop.shape(r)));
    }
    List<Node> xs = new ArrayList<>();
    List<Node> invariants = new ArrayList<>();
    for (int k = loop.carried(); k < params.size(); k++) {
      Node p = params.get(k);
      boolean sliced = k < loop.carried() + loop.sliced();
      Shape s = sliced ? loop.stacked(p.shape()) : p.shape();
      (sliced ? xs : invariants).add(g.parameter("in" + k, p.dtype(), s));
    }
    Node at =
        loop.reverse() ? g.sub(g.constant(loop.trips() - 1, DType.I32, Shape.scalar()), i) : i;
    GraphCopier copier = new GraphCopier(g);
    for (int c = 0; c < carries.size(); c++) {
      copier.bind(params.get(c), carries.get(c));
    }
    for (int k = 0; k < xs.size(); k++) {
      Node p = params.get(loop.carried() + k);
      copier.bind(p, sliceAt(g, xs.get(k), at, p.shape()));
    }
    for (int k = 0; k < invariants.size(); k++) {
      copier.bind(params.get(loop.carried() + loop.sliced() + k), invariants.get(k));
    }
    List<Node> outs = copier.copyAll(body.outputs());
    List<Node> state = new ArrayList<>();
    state.add(g.add(i, g.constant(1, DType.I32, Shape.scalar())));
    state.addAll(outs.subList(0, loop.carried()));
    for (int r = 0; r < ys.size(); r++) {
      Node y = outs.get(loop.carried() + r);
      Node stack = ys.get(r);
      int[] one = stack.shape().dims();
      one[0] = 1;
      state.add(g.dynamicUpdateSlice(stack, g.reshape(y, Shape.of(one)), at(g, at, one.length)));
    }
    state.addAll(xs);
    state.addAll(invariants);
    return g.build(state);
  }

  /** Slice {@code at} of {@code stack} (trips, s...) as s. */
  private static Node sliceAt(GraphBuilder g, Node stack, Node at, Shape s) {
    int[] sizes = stack.shape().dims();
    sizes[0] = 1;
    return g.reshape(g.dynamicSlice(stack, at(g, at, sizes.length), sizes), s);
  }

  /** Start indices (at, 0, 0, ...) into a stack of the given rank. */
  private static List<Node> at(GraphBuilder g, Node at, int rank) {
    List<Node> starts = new ArrayList<>();
    starts.add(at);
    Node zero = g.constant(0, DType.I32, Shape.scalar());
    for (int d = 1; d < rank; d++) {
      starts.add(zero);
    }
    return starts;
  }
}
