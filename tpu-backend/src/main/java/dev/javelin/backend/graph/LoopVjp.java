package dev.javelin.backend.graph;

import java.util.ArrayList;
import java.util.List;

/**
 * The VJP of a scan ({@link Scan}): a loop with one carry h whose body also returns its input
 * carry, so the loop's second result stacks every iteration's input carry. The backward is itself
 * one loop, run in the other direction: iteration t recomputes the body's forward from the saved
 * input carry h_t and slice t of the stacked inputs (per-iteration recomputation, as a scanned
 * {@code jax.checkpoint}), pulls the carry's cotangent back through it, and writes slice t of each
 * stacked input's gradient; gradients of invariants are summed in extra carries.
 */
final class LoopVjp {
  private LoopVjp() {}

  /** Contributions to the loop's operands from the cotangent {@code dy} of result {@code y}. */
  static void apply(GraphBuilder g, Node y, Node dy, boolean[] need, Node[] out) {
    Op.LoopResult r = (Op.LoopResult) y.op();
    Loop loop = r.loop();
    if (!Scan.isScan(loop) || r.index() != 0) {
      throw new UnsupportedOperationException(
          "gradients flow only into the final carry of a scan, not result "
              + r.index()
              + " of "
              + loop);
    }
    List<Node> operands = y.inputs();
    int sliced = loop.sliced();
    List<Integer> xs = needed(need, 1, 1 + sliced);
    List<Integer> inv = needed(need, 1 + sliced, need.length);
    Program body = backwardBody(loop, xs, inv);
    List<Node> ops = new ArrayList<>();
    ops.add(dy);
    for (int k : inv) {
      ops.add(g.full(operands.get(k), 0));
    }
    ops.add(g.add(new Op.LoopResult(loop, 1), operands, loop.shape(1), loop.dtype(1)));
    ops.addAll(operands.subList(1, operands.size()));
    List<Node> res =
        Loop.apply(
            g,
            loop.name() + ".vjp",
            body,
            loop.trips(),
            1 + inv.size(),
            1 + sliced,
            !loop.reverse(),
            ops);
    out[0] = need[0] ? res.get(0) : null;
    for (int j = 0; j < inv.size(); j++) {
      out[inv.get(j)] = res.get(1 + j);
    }
    for (int j = 0; j < xs.size(); j++) {
      out[xs.get(j)] = res.get(1 + inv.size() + j);
    }
  }

  private static List<Integer> needed(boolean[] need, int from, int to) {
    List<Integer> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      if (need[i]) {
        out.add(i);
      }
    }
    return out;
  }

  /**
   * Parameters: the carry's cotangent and one gradient sum per needed invariant (carries), the
   * saved input carry and the inputs' slices (sliced), the invariants. Outputs: the cotangent of
   * the input carry, the sums plus this iteration's invariant gradients, then the needed slices'
   * gradients.
   */
  private static Program backwardBody(Loop loop, List<Integer> xs, List<Integer> inv) {
    Program fwd = loop.body();
    List<Node> fp = fwd.parameters();
    GraphBuilder b = new GraphBuilder(loop.name() + ".vjp.body");
    Node h = fp.get(0);
    Node ct = b.parameter("ct", h.dtype(), h.shape());
    List<Node> sums = new ArrayList<>();
    for (int k : inv) {
      sums.add(b.parameter("sum" + k, fp.get(k).dtype(), fp.get(k).shape()));
    }
    GraphCopier copier = new GraphCopier(b);
    List<Node> mine = new ArrayList<>();
    for (int k = 0; k < fp.size(); k++) {
      Node p = fp.get(k);
      Node q = b.parameter("in" + k, p.dtype(), p.shape());
      copier.bind(p, q);
      mine.add(q);
    }
    Node next = copier.copy(fwd.outputs().get(0));
    List<Node> wrt = new ArrayList<>();
    wrt.add(mine.get(0));
    inv.forEach(k -> wrt.add(mine.get(k)));
    xs.forEach(k -> wrt.add(mine.get(k)));
    List<Node> grads = Autodiff.vjp(b, List.of(next), List.of(ct), wrt);
    List<Node> outs = new ArrayList<>();
    outs.add(grads.get(0));
    for (int j = 0; j < inv.size(); j++) {
      outs.add(b.add(sums.get(j), grads.get(1 + j)));
    }
    outs.addAll(grads.subList(1 + inv.size(), grads.size()));
    return b.build(outs);
  }
}
