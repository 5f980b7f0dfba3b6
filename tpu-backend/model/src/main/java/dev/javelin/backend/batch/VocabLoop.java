package dev.javelin.backend.batch;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Scan;
import java.util.List;

/**
 * The LM head as one loop over equal vocabulary blocks: each iteration computes one block's logits
 * (B, C, Vb) from the head's rows and reduces them to {@link VocabBlocks.Partial} sums, which the
 * loop stacks (blocks, B, C) and {@link VocabBlocks#combineStacked} joins. XLA compiles the body
 * once and holds one block of logits at a time, where unrolled blocks leave the scheduler free to
 * keep them all; the loop's gradient recomputes each block's logits from the head's rows ({@link
 * Scan}), writing that block's rows of the head's gradient. With {@link HeadLogits#KEEP} the
 * forward stacks the blocks' logits and the gradient reads them instead ({@link KeptVocabLoop}).
 */
final class VocabLoop {
  private VocabLoop() {}

  /** The smallest number of blocks that evenly splits {@code vocab}, or 0 when none does. */
  static int blocks(int vocab, int wanted, int minBlock) {
    for (int n = Math.max(2, wanted); n <= vocab / minBlock; n++) {
      if (vocab % n == 0) {
        return n;
      }
    }
    for (int n = Math.min(wanted, vocab / minBlock); n >= 2; n--) { // blocks a little larger
      if (vocab % n == 0) {
        return n;
      }
    }
    return 0;
  }

  /**
   * Stats of {@code targets} under the head's logits, in {@code blocks} blocks.
   *
   * @param hidden (B, C, D)
   * @param rows the head's weight (V, D), V divisible by {@code blocks}
   * @param targets (B, C) i32
   * @param keep whether the gradient recomputes each block's logits or reads them kept
   */
  static TokenStats of(
      GraphBuilder g,
      Node hidden,
      Node rows,
      TokenStats.BlockLogits head,
      Node targets,
      Node temperature,
      int blocks,
      HeadLogits keep) {
    int v = rows.shape().dim(0);
    int vb = v / blocks;
    Node stacked = g.reshape(rows, blocks, vb, rows.shape().dim(1)); // (blocks, Vb, D)
    Node firsts =
        g.mul(g.iota(DType.I32, Shape.of(blocks), 0), g.constant(vb, DType.I32, Shape.of(blocks)));
    Node none =
        g.constant(0, DType.F32, Shape.of()); // the loop's carry: the blocks are independent
    List<Node> out =
        keep == HeadLogits.KEEP
            ? KeptVocabLoop.apply(
                g, List.of(none, stacked, firsts, hidden, targets, temperature), head)
            : recomputed(g, head, none, stacked, firsts, List.of(hidden, targets, temperature));
    // results: the carry, then the blocks' stacked max, sum, picked and weighted (then logits)
    return VocabBlocks.combineStacked(
        g, new VocabBlocks.Partial(out.get(1), out.get(2), out.get(3), out.get(4)));
  }

  /** The loop whose gradient recomputes each block's logits ({@link Scan}). */
  private static List<Node> recomputed(
      GraphBuilder g,
      TokenStats.BlockLogits head,
      Node none,
      Node stacked,
      Node firsts,
      List<Node> invariants) {
    return Scan.withOutputs(
        g,
        "vocab",
        none,
        List.of(stacked, firsts),
        invariants,
        (b, carry, slices, inv) -> {
          VocabBlocks.Partial p =
              blockPartial(
                      b, head, inv.get(0), slices.get(0), slices.get(1), inv.get(1), inv.get(2))
                  .partial();
          return List.of(carry, p.max(), p.sum(), p.picked(), p.weighted());
        });
  }

  /** One block's logits (B, C, Vb) and their partial sums. */
  record Block(Node logits, VocabBlocks.Partial partial) {}

  /**
   * Block j's logits from its rows (Vb, D) and partial sums, its first entry {@code first} an i32
   * scalar.
   */
  static Block blockPartial(
      GraphBuilder b,
      TokenStats.BlockLogits head,
      Node hidden,
      Node rows,
      Node first,
      Node targets,
      Node temperature) {
    Node logits = head.logits(b, hidden, rows); // (B, C, Vb)
    return new Block(logits, partialOf(b, logits, first, targets, temperature));
  }

  /** The partial sums of block logits whose first entry is {@code first}. */
  static VocabBlocks.Partial partialOf(
      GraphBuilder b, Node logits, Node first, Node targets, Node temperature) {
    Node local = b.sub(targets, b.broadcastInDim(first, targets.shape()));
    return VocabBlocks.partialLocal(b, logits, local, temperature);
  }
}
