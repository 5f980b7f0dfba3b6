package dev.javelin.backend.batch;

import dev.javelin.backend.graph.Autodiff;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Loop;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.model.NeuralOps;
import java.util.ArrayList;
import java.util.List;

/**
 * The vocabulary loop of {@link VocabLoop} that keeps its logits ({@link HeadLogits#KEEP}): the
 * forward also stacks every block's logits (blocks, B, C, Vb), and the gradient is the loop's own
 * ({@link Loop.Backward}), a second loop whose iteration j pulls the partial sums' cotangents back
 * to block j's kept logits and from there through the head's product to the hidden states (summed
 * over blocks in a carry of at least f32) and to block j's rows. The product's gradient needs only
 * its inputs, so the backward holds no recomputed logits; a head that transforms its logits after
 * the product (a soft cap) is differentiated through it all the same.
 */
final class KeptVocabLoop {
  private KeptVocabLoop() {}

  // Operands: the dummy carry; rows (blocks, Vb, D) and first entries (blocks) sliced; then the
  // invariants hidden (B, C, D), targets (B, C) and temperature.
  private static final int ROWS = 1;
  private static final int HIDDEN = 3;
  private static final int TEMPERATURE = 5;

  /** The loop's results: the dummy carry, the stacked max, sum, picked, weighted and logits. */
  static List<Node> apply(GraphBuilder g, List<Node> operands, TokenStats.BlockLogits head) {
    GraphBuilder b = new GraphBuilder("vocab.body");
    List<Node> p = Loop.parameters(b, operands, 1, 3);
    VocabLoop.Block block =
        VocabLoop.blockPartial(b, head, p.get(HIDDEN), p.get(ROWS), p.get(2), p.get(4), p.get(5));
    VocabBlocks.Partial s = block.partial();
    Node kept = b.batchMajor(block.logits()); // its stack (blocks, B, C, Vb) lies split on B
    Program body = b.build(List.of(p.get(0), s.max(), s.sum(), s.picked(), s.weighted(), kept));
    int blocks = operands.get(ROWS).shape().dim(0);
    Loop.Backward backward =
        (gb, ops, results, dys, need) -> backward(gb, ops, results, dys, need, head);
    return Loop.of("vocab", body, blocks, 1, 2).withBackward(backward).apply(g, operands);
  }

  private static Node[] backward(
      GraphBuilder g,
      List<Node> operands,
      List<Node> results,
      Node[] dys,
      boolean[] need,
      TokenStats.BlockLogits head) {
    if (dys[5] != null || need[TEMPERATURE]) {
      throw new UnsupportedOperationException(
          "the vocabulary loop's kept logits and its temperature take no gradient");
    }
    Node hidden = operands.get(HIDDEN);
    List<Node> ops = new ArrayList<>();
    ops.add(g.constant(0, NeuralOps.wide(hidden.dtype()), hidden.shape())); // ∂hidden summed
    ops.add(operands.get(ROWS));
    ops.add(operands.get(2));
    ops.add(results.get(5)); // the kept logits
    for (int r = 2; r <= 4; r++) { // the max is a constant of the sums: it takes none
      ops.add(dys[r] != null ? dys[r] : g.full(results.get(r), 0));
    }
    ops.addAll(operands.subList(HIDDEN, operands.size()));
    Program body = backwardBody(ops, head, need[ROWS]);
    int blocks = operands.get(ROWS).shape().dim(0);
    List<Node> res = Loop.of("vocab.vjp", body, blocks, 1, 6).apply(g, ops);
    Node[] out = new Node[operands.size()];
    out[HIDDEN] = need[HIDDEN] ? g.convert(res.get(0), hidden.dtype()) : null;
    out[ROWS] = need[ROWS] ? res.get(1) : null;
    return out;
  }

  /**
   * Parameters: ∂hidden (carry); rows_j, first_j, logits_j and the cotangents of sum_j, picked_j
   * and weighted_j (slices); hidden, targets, temperature (invariants). Outputs: ∂hidden after
   * block j, then ∂rows_j when {@code rowsToo}.
   */
  private static Program backwardBody(
      List<Node> ops, TokenStats.BlockLogits head, boolean rowsToo) {
    GraphBuilder b = new GraphBuilder("vocab.vjp.body");
    List<Node> p = Loop.parameters(b, ops, 1, 7);
    Node dh = b.batchMajor(p.get(0));
    Node rows = p.get(1);
    Node logits = p.get(3);
    Node hidden = p.get(7);
    VocabBlocks.Partial s = VocabLoop.partialOf(b, logits, p.get(2), p.get(8), p.get(9));
    Node dlogits =
        Autodiff.vjp(
                b,
                List.of(s.sum(), s.picked(), s.weighted()),
                List.of(p.get(4), p.get(5), p.get(6)),
                List.of(logits))
            .get(0);
    List<Node> wrt = rowsToo ? List.of(hidden, rows) : List.of(hidden);
    List<Node> grads =
        Autodiff.vjp(b, List.of(head.logits(b, hidden, rows)), List.of(dlogits), wrt);
    List<Node> outs = new ArrayList<>();
    outs.add(b.batchMajor(b.add(dh, b.convert(grads.get(0), dh.dtype()))));
    if (rowsToo) {
      outs.add(grads.get(1));
    }
    return b.build(outs);
  }
}
