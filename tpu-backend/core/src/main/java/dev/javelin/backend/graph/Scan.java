package dev.javelin.backend.graph;

import dev.javelin.backend.Shape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A differentiable loop of one carried value over stacked per-iteration inputs, as a decoder's
 * layers over the layer weights stacked (L, ...): {@code h = step(h, xs[t], invariants)} for t = 0
 * .. L-1, each step optionally also returning values the loop stacks (L, ...). The loop also stacks
 * each iteration's input carry, which is all its gradient keeps: the backward loop recomputes each
 * step from it ({@link LoopVjp}).
 */
public final class Scan {
  private Scan() {}

  /** One iteration: the new carry from the carry, this iteration's slices and the invariants. */
  @FunctionalInterface
  public interface Step {
    Node apply(GraphBuilder g, Node carry, List<Node> slices, List<Node> invariants);
  }

  /** One iteration with outputs: the new carry, then one value per stacked output. */
  @FunctionalInterface
  public interface Steps {
    List<Node> apply(GraphBuilder g, Node carry, List<Node> slices, List<Node> invariants);
  }

  /**
   * The final carry after {@code xs}' first dimension's worth of steps.
   *
   * @param xs stacked inputs (L, ...), all with the same L
   * @param invariants values every step reads whole (masks, rotary tables)
   */
  public static Node apply(
      GraphBuilder g, String name, Node init, List<Node> xs, List<Node> invariants, Step step) {
    Steps one = (b, carry, slices, inv) -> List.of(step.apply(b, carry, slices, inv));
    return withOutputs(g, name, init, xs, invariants, one).get(0);
  }

  /**
   * As {@link #apply}, the step also returning per-iteration values (a routed layer's router
   * logits): the final carry, then each such value stacked (L, ...). Gradients flow into all of
   * them.
   */
  public static List<Node> withOutputs(
      GraphBuilder g, String name, Node init, List<Node> xs, List<Node> invariants, Steps step) {
    if (xs.isEmpty()) {
      throw new IllegalArgumentException("scan '" + name + "' has no stacked inputs");
    }
    int trips = xs.get(0).shape().dim(0);
    GraphBuilder b = new GraphBuilder(name + ".body");
    Node carry = b.parameter("carry", init.dtype(), init.shape());
    List<Node> slices = new ArrayList<>();
    for (int k = 0; k < xs.size(); k++) {
      Node x = xs.get(k);
      int[] dims = x.shape().dims();
      slices.add(
          b.parameter("x" + k, x.dtype(), Shape.of(Arrays.copyOfRange(dims, 1, dims.length))));
    }
    List<Node> inv = new ArrayList<>();
    for (int k = 0; k < invariants.size(); k++) {
      Node x = invariants.get(k);
      inv.add(b.parameter("inv" + k, x.dtype(), x.shape()));
    }
    List<Node> next = step.apply(b, carry, slices, inv);
    List<Node> outs = new ArrayList<>();
    outs.add(next.get(0));
    outs.add(carry); // the saved input carries, result 1: all the gradient keeps
    outs.addAll(next.subList(1, next.size()));
    Program body = b.build(outs);
    List<Node> operands = new ArrayList<>();
    operands.add(init);
    operands.addAll(xs);
    operands.addAll(invariants);
    List<Node> results = Loop.of(name, body, trips, 1, xs.size()).apply(g, operands);
    List<Node> out = new ArrayList<>();
    out.add(results.get(0));
    out.addAll(results.subList(2, results.size()));
    return out;
  }

  /**
   * Whether {@code loop} is a scan: one carry, whose input the body returns as its first stack
   * (then any per-iteration outputs).
   */
  static boolean isScan(Loop loop) {
    Program body = loop.body();
    return loop.carried() == 1
        && body.outputs().size() >= 2
        && body.outputs().get(1) == body.parameters().get(0)
        && !loop.reverse();
  }
}
