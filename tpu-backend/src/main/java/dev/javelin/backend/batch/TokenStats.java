package dev.javelin.backend.batch;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.model.NeuralOps;
import java.util.List;

/**
 * Per-token log-probabilities and entropies of next-token distributions at a temperature τ: with
 * {@code z = logits / τ} and {@code lse = log Σ_v exp z_v}, {@code logp[b, t] = z[b, t, ids[b,
 * t+1]] - lse} and {@code H[b, t] = lse - Σ_v softmax(z)_v z_v}.
 *
 * <p>Written so that nothing of size (B, T, V) beyond {@code z} and {@code exp(z - max)} is formed:
 * the vocabulary axis dominates the cost of small models, and every (B, T, V) intermediate is one
 * more pass over memory in the forward and again in the backward.
 *
 * @param logp (B, C): one column per scored token
 * @param entropy (B, C)
 */
public record TokenStats(Node logp, Node entropy) {

  /**
   * Stats of {@code ids[:, 1:]} under logits (B, T, V): column t scores token t + 1.
   *
   * @param logits (B, T, V)
   * @param ids (B, T) i32
   * @param temperature f32 scalar τ
   */
  public static TokenStats of(GraphBuilder g, Node logits, Node ids, Node temperature) {
    int b = logits.shape().dim(0);
    int t = logits.shape().dim(1);
    // next[b, t] = ids[b, t+1]; the last column is a dummy whose result is sliced away
    Node next =
        g.concatenate(
            1, List.of(g.sliceAxis(ids, 1, 1, t), g.constant(0, DType.I32, Shape.of(b, 1))));
    TokenStats all = ofTargets(g, logits, next, temperature);
    return new TokenStats(
        g.sliceAxis(all.logp(), 1, 0, t - 1), g.sliceAxis(all.entropy(), 1, 0, t - 1));
  }

  /**
   * Stats of {@code targets[b, c]} under the distribution {@code logits[b, c]}, both (B, C).
   *
   * @param logits (B, C, V)
   * @param targets (B, C) i32
   */
  public static TokenStats ofTargets(GraphBuilder g, Node logits, Node targets, Node temperature) {
    int v = logits.shape().dim(2);
    Shape full = logits.shape();
    Node z = g.div(logits, g.broadcastInDim(temperature, full)); // (B, C, V)
    Node m = g.reduceMax(z, 2); // (B, C)
    Node e = g.exp(g.sub(z, NeuralOps.broadcastKeep(g, m, full)));
    Node s = g.reduceSum(e, 2);
    Node lse = g.add(m, g.log(s));
    Node picked = g.reduceSum(g.mul(z, NeuralOps.oneHot(g, targets, v, logits.dtype())), 2);
    Node expectedZ = g.div(g.reduceSum(g.mul(e, z), 2), s); // Σ p z
    return new TokenStats(g.sub(picked, lse), g.sub(lse, expectedZ));
  }
}
