package dev.javelin.backend.batch;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.model.NeuralOps;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

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
   * Bytes of f32 logits one chunk of the LM head may hold ({@code -Djavelin.head.chunk_mb}, default
   * 64): {@link #ofHidden} computes the head over column chunks of at most this size, so the (B, T,
   * V) logits of a 50k–150k vocabulary never exist at once.
   */
  static final long CHUNK_BYTES = Long.getLong("javelin.head.chunk_mb", 64) << 20;

  /**
   * Stats of {@code ids[:, 1:]} from final hidden states (B, T, D), {@code head} mapping hidden
   * states (B, C, D) to logits (B, C, V): as {@link #of} on {@code head(hidden)}, but over column
   * chunks of at most {@link #CHUNK_BYTES} of logits, each its own recomputation segment.
   */
  public static TokenStats ofHidden(
      GraphBuilder g,
      Node hidden,
      UnaryOperator<Node> head,
      int vocab,
      Node ids,
      Node temperature) {
    return ofHidden(g, hidden, head, ids, temperature, chunkColumns(hidden.shape().dim(0), vocab));
  }

  /** As above with chunks of {@code columns} columns (T or more: one unchunked head). */
  public static TokenStats ofHidden(
      GraphBuilder g,
      Node hidden,
      UnaryOperator<Node> head,
      Node ids,
      Node temperature,
      int columns) {
    int b = hidden.shape().dim(0);
    int t = hidden.shape().dim(1);
    Node next =
        g.concatenate(
            1, List.of(g.sliceAxis(ids, 1, 1, t), g.constant(0, DType.I32, Shape.of(b, 1))));
    TokenStats all = chunked(g, hidden, head, next, temperature, columns);
    return new TokenStats(
        g.sliceAxis(all.logp(), 1, 0, t - 1), g.sliceAxis(all.entropy(), 1, 0, t - 1));
  }

  /**
   * {@link #ofTargets} of {@code head(hidden)} for hidden states (B, C, D) and targets (B, C),
   * computed over column chunks of at most {@link #CHUNK_BYTES} of logits. Each chunk is a
   * recomputation segment whose outputs are its (B, c) stats, so under {@code Remat.BLOCKS} the
   * backward pass also holds one chunk of logits at a time.
   */
  public static TokenStats chunked(
      GraphBuilder g,
      Node hidden,
      UnaryOperator<Node> head,
      int vocab,
      Node targets,
      Node temperature) {
    return chunked(
        g, hidden, head, targets, temperature, chunkColumns(hidden.shape().dim(0), vocab));
  }

  private static TokenStats chunked(
      GraphBuilder g,
      Node hidden,
      UnaryOperator<Node> head,
      Node targets,
      Node temperature,
      int columns) {
    int c = hidden.shape().dim(1);
    if (columns >= c) {
      return ofTargets(g, head.apply(hidden), targets, temperature);
    }
    List<Node> logp = new ArrayList<>();
    List<Node> entropy = new ArrayList<>();
    for (int c0 = 0; c0 < c; c0 += columns) {
      int c1 = Math.min(c, c0 + columns);
      g.beginSegment();
      Node z = head.apply(g.sliceAxis(hidden, 1, c0, c1));
      TokenStats s = ofTargets(g, z, g.sliceAxis(targets, 1, c0, c1), temperature);
      g.endSegment(s.logp(), s.entropy());
      logp.add(s.logp());
      entropy.add(s.entropy());
    }
    return new TokenStats(g.concatenate(1, logp), g.concatenate(1, entropy));
  }

  /** Columns per head chunk for {@code rows} rows of a {@code vocab}-wide f32 head (at least 1). */
  public static int chunkColumns(int rows, int vocab) {
    long perColumn = 4L * rows * vocab;
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, CHUNK_BYTES / Math.max(1, perColumn)));
  }

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
