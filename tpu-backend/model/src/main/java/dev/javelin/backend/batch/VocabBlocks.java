package dev.javelin.backend.batch;

import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.model.NeuralOps;
import java.util.List;

/**
 * Token stats over vocabulary blocks with an online log-sum-exp, as flash attention does over keys:
 * each block j of the scaled logits z gives its max m_j, {@code s_j = Σ exp(z - m_j)}, the target's
 * logit if it lies in the block, and {@code Σ exp(z - m_j) z}; with {@code M = max_j m_j} and
 * {@code w_j = exp(m_j - M)}, {@code lse = M + log Σ_j w_j s_j} and {@code Σ_v p_v z_v = Σ_j w_j (Σ
 * exp(z - m_j) z)_j / Σ_j w_j s_j}. The maxima are constants for differentiation: the result does
 * not depend on them, so the gradients are exact.
 */
final class VocabBlocks {
  private VocabBlocks() {}

  /** One block's partial sums, each (B, C). */
  record Partial(Node max, Node sum, Node picked, Node weighted) {
    Node[] nodes() {
      return new Node[] {max, sum, picked, weighted};
    }
  }

  /** The partial sums of logits (B, C, Vb) holding vocabulary entries [from, from + Vb). */
  static Partial partial(GraphBuilder g, Node logits, Node targets, int from, Node temperature) {
    return partialLocal(g, logits, g.sub(targets, g.full(targets, from)), temperature);
  }

  /**
   * As above, the targets given relative to the block's first entry: one out of [0, Vb) lies in
   * another block and gives an all-zero one-hot row.
   */
  static Partial partialLocal(GraphBuilder g, Node logits, Node local, Node temperature) {
    Shape full = logits.shape();
    int vb = full.dim(2);
    Node z = g.div(logits, g.broadcastInDim(temperature, full));
    Node m = g.stopGradient(g.reduceMax(z, 2));
    Node e = g.exp(g.sub(z, NeuralOps.broadcastKeep(g, m, full)));
    Node picked = g.reduceSum(g.mul(z, NeuralOps.oneHot(g, local, vb, logits.dtype())), 2);
    return new Partial(m, g.reduceSum(e, 2), picked, g.reduceSum(g.mul(e, z), 2));
  }

  /** The stats of the whole vocabulary from its blocks' partial sums. */
  static TokenStats combine(GraphBuilder g, List<Partial> parts) {
    Node top = parts.get(0).max();
    for (int j = 1; j < parts.size(); j++) {
      top = g.max(top, parts.get(j).max());
    }
    top = g.stopGradient(top);
    Node sum = null;
    Node weighted = null;
    Node picked = null;
    for (Partial p : parts) {
      Node w = g.exp(g.sub(p.max(), top));
      sum = plus(g, sum, g.mul(w, p.sum()));
      weighted = plus(g, weighted, g.mul(w, p.weighted()));
      picked = plus(g, picked, p.picked());
    }
    Node lse = g.add(top, g.log(sum));
    return new TokenStats(g.sub(picked, lse), g.sub(lse, g.div(weighted, sum)));
  }

  /**
   * The stats of the whole vocabulary from the blocks' partial sums stacked (blocks, B, C), as a
   * loop over the blocks returns them: {@link #combine} with the sums over the blocks' axis.
   */
  static TokenStats combineStacked(GraphBuilder g, Partial stacked) {
    Shape s = stacked.max().shape();
    Node top = g.stopGradient(g.reduceMax(stacked.max(), 0)); // (B, C)
    Node w = g.exp(g.sub(stacked.max(), g.broadcastInDim(top, s, 1, 2)));
    Node sum = g.reduceSum(g.mul(w, stacked.sum()), 0);
    Node weighted = g.reduceSum(g.mul(w, stacked.weighted()), 0);
    Node lse = g.add(top, g.log(sum));
    Node picked = g.reduceSum(stacked.picked(), 0);
    return new TokenStats(g.sub(picked, lse), g.sub(lse, g.div(weighted, sum)));
  }

  private static Node plus(GraphBuilder g, Node acc, Node x) {
    return acc == null ? x : g.add(acc, x);
  }
}
