package dev.javelin.backend.graph;

import java.util.ArrayList;
import java.util.List;

/**
 * The VJP of a scan ({@link Scan}): a loop with one carry h whose body also returns its input
 * carry, so the loop's second result stacks every iteration's input carry. The backward is itself
 * one loop, run in the other direction: iteration t recomputes the body's forward from the saved
 * input carry h_t and slice t of the stacked inputs (per-iteration recomputation, as a scanned
 * {@code jax.checkpoint}), pulls the carry's cotangent back through it, and writes slice t of each
 * stacked input's gradient; gradients of invariants are summed in extra carries. The cotangents of
 * the scan's per-iteration outputs enter as further stacked inputs, slice t pulled back with the
 * carry's in iteration t.
 */
final class LoopVjp {
  private LoopVjp() {}

  /**
   * Contributions to the loop's operands from the cotangents {@code dys} of its results (null where
   * a result takes none): the final carry's and the per-iteration outputs', all in one backward
   * loop.
   */
  static void apply(
      GraphBuilder g, Loop loop, List<Node> operands, Node[] dys, boolean[] need, Node[] out) {
    if (loop.backward() != null) {
      List<Node> results = new ArrayList<>();
      for (int r = 0; r < loop.results(); r++) {
        results.add(g.add(new Op.LoopResult(loop, r), operands, loop.shape(r), loop.dtype(r)));
      }
      Node[] own = loop.backward().apply(g, operands, results, dys, need);
      System.arraycopy(own, 0, out, 0, out.length);
      return;
    }
    if (!Scan.isScan(loop) || dys[1] != null) {
      throw new UnsupportedOperationException(
          "gradients flow only into the final carry and the outputs of a scan, not into the saved"
              + " carries or another loop: "
              + loop);
    }
    int sliced = loop.sliced();
    List<Integer> xs = needed(need, 1, 1 + sliced);
    List<Integer> inv = needed(need, 1 + sliced, need.length);
    List<Integer> ys = new ArrayList<>();
    for (int r = 2; r < dys.length; r++) {
      if (dys[r] != null) {
        ys.add(r);
      }
    }
    Program body = backwardBody(loop, xs, inv, ys);
    Node init = operands.get(0);
    List<Node> ops = new ArrayList<>();
    ops.add(dys[0] != null ? dys[0] : g.full(init, 0));
    for (int k : inv) {
      ops.add(g.full(operands.get(k), 0));
    }
    ops.add(g.add(new Op.LoopResult(loop, 1), operands, loop.shape(1), loop.dtype(1)));
    ops.addAll(operands.subList(1, 1 + sliced));
    ys.forEach(r -> ops.add(dys[r]));
    ops.addAll(operands.subList(1 + sliced, operands.size()));
    List<Node> res =
        Loop.of(loop.name() + ".vjp", body, loop.trips(), 1 + inv.size(), 1 + sliced + ys.size())
            .withReverse(!loop.reverse())
            .apply(g, ops);
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
   * saved input carry, the inputs' slices and the slices of the outputs' cotangents (sliced), the
   * invariants. Outputs: the cotangent of the input carry, the sums plus this iteration's invariant
   * gradients, then the needed slices' gradients.
   */
  private static Program backwardBody(
      Loop loop, List<Integer> xs, List<Integer> inv, List<Integer> ys) {
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
    List<Node> outputs = new ArrayList<>();
    List<Node> cotangents = new ArrayList<>();
    outputs.add(fwd.outputs().get(0));
    cotangents.add(ct);
    for (int k = 0; k <= fp.size(); k++) {
      if (k == 1 + loop.sliced()) { // the outputs' cotangent slices sit before the invariants
        for (int r : ys) {
          Node y = fwd.outputs().get(r);
          outputs.add(y);
          cotangents.add(b.parameter("dy" + r, y.dtype(), y.shape()));
        }
      }
      if (k < fp.size()) {
        Node p = fp.get(k);
        Node q = b.parameter("in" + k, p.dtype(), p.shape());
        if (p.batchMajor()) {
          q.markBatchMajor(); // so the carry's cotangent, this body's first output, is too
        }
        copier.bind(p, q);
        mine.add(q);
      }
    }
    List<Node> wrt = new ArrayList<>();
    wrt.add(mine.get(0));
    inv.forEach(k -> wrt.add(mine.get(k)));
    xs.forEach(k -> wrt.add(mine.get(k)));
    List<Node> grads = Autodiff.vjp(b, copier.copyAll(outputs), cotangents, wrt);
    List<Node> outs = new ArrayList<>();
    outs.add(grads.get(0));
    for (int j = 0; j < inv.size(); j++) {
      outs.add(b.add(sums.get(j), grads.get(1 + j)));
    }
    outs.addAll(grads.subList(1 + inv.size(), grads.size()));
    return b.build(outs);
  }
}
