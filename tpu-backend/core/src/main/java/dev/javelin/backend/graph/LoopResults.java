package dev.javelin.backend.graph;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The result nodes of each loop a {@link GraphBuilder} holds: all of a loop's results are added at
 * once, and once per loop and operands, so a gradient added later that reads another result (a
 * scan's saved carries) finds it among the forward values.
 */
final class LoopResults {
  /** Makes one node (the builder's own node factory). */
  @FunctionalInterface
  interface NodeFactory {
    Node make(Op op, List<Node> inputs, Shape shape, DType dtype);
  }

  private final Map<List<Object>, List<Node>> added = new HashMap<>();

  /** The node of {@code r} over {@code inputs}, adding every result of its loop if new. */
  Node of(Op.LoopResult r, List<Node> inputs, NodeFactory nodes) {
    List<Object> key = new ArrayList<>();
    key.add(r.loop());
    key.addAll(inputs);
    List<Node> results = added.get(key);
    if (results == null) {
      results = new ArrayList<>();
      for (int i = 0; i < r.loop().results(); i++) {
        Op.LoopResult ri = new Op.LoopResult(r.loop(), i);
        results.add(nodes.make(ri, inputs, r.loop().shape(i), r.loop().dtype(i)));
      }
      added.put(key, results);
    }
    return results.get(r.index());
  }
}
