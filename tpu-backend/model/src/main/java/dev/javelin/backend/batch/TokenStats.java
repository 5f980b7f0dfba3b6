package dev.javelin.backend.batch;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.model.NeuralOps;
import java.util.ArrayList;
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
   * An LM head: the logits (B, C, to - from) of vocabulary entries [from, to) for hidden states (B,
   * C, D).
   */
  @FunctionalInterface
  public interface Head {
    Node logits(Node hidden, int from, int to);
  }

  /** An LM head's logits (B, C, Vb) for hidden states (B, C, D) from some of its rows (Vb, D). */
  @FunctionalInterface
  public interface BlockLogits {
    Node logits(GraphBuilder g, Node hidden, Node rows);
  }

  /**
   * The vocabulary blocks {@link #ofHiddenLooped} runs for hidden states (B, T, D) and a head of
   * {@code vocab} rows: the head's tile count where it needs more than one tile and the rows split
   * evenly into blocks of at least {@value HeadTiles#MIN_VOCAB_BLOCK}, else 0 (no loop).
   */
  public static int loopBlocks(Node hidden, int vocab) {
    long wanted = HeadTiles.count(hidden.shape().dim(0), hidden.shape().dim(1), vocab);
    return wanted < 2
        ? 0
        : VocabLoop.blocks(vocab, (int) Math.min(vocab, wanted), HeadTiles.MIN_VOCAB_BLOCK);
  }

  /**
   * As {@link #ofHidden}, the vocabulary in {@code blocks} blocks as one loop ({@link VocabLoop});
   * 0 blocks: as {@link #ofHidden}, unrolled. {@code keep} says whether the loop's gradient
   * recomputes each block's logits or keeps them from the forward.
   *
   * @param rows the head's weight (V, D), V divisible by {@code blocks}
   */
  public static TokenStats ofHiddenLooped(
      GraphBuilder g,
      Node hidden,
      Node rows,
      BlockLogits head,
      Node ids,
      Node temperature,
      int blocks,
      HeadLogits keep) {
    if (blocks == 0) {
      Head sliced = (x, from, to) -> head.logits(g, x, g.sliceAxis(rows, 0, from, to));
      return ofHidden(g, hidden, sliced, rows.shape().dim(0), ids, temperature);
    }
    int t = hidden.shape().dim(1);
    if (blocks < 1 || rows.shape().dim(0) % blocks != 0) {
      throw new IllegalArgumentException(
          blocks + " vocabulary blocks do not split " + rows.shape().dim(0) + " rows evenly");
    }
    Node next = nextTokens(g, ids);
    TokenStats all = VocabLoop.of(g, hidden, rows, head, next, temperature, blocks, keep);
    return withoutLastColumn(g, all, t);
  }

  /**
   * Stats of {@code ids[:, 1:]} from final hidden states (B, T, D): as {@link #of} on the head's
   * logits, but over the tiles {@link HeadTiles#of} picks, so the (B, T, V) logits of a 50k–150k
   * vocabulary never exist at once.
   */
  public static TokenStats ofHidden(
      GraphBuilder g, Node hidden, Head head, int vocab, Node ids, Node temperature) {
    return ofHidden(g, hidden, head, vocab, ids, temperature, tilesOf(hidden, vocab));
  }

  /** As above over the given tiles. */
  public static TokenStats ofHidden(
      GraphBuilder g,
      Node hidden,
      Head head,
      int vocab,
      Node ids,
      Node temperature,
      HeadTiles tiles) {
    int t = hidden.shape().dim(1);
    Node next = nextTokens(g, ids);
    TokenStats all = chunked(g, hidden, head, vocab, next, temperature, tiles);
    return withoutLastColumn(g, all, t);
  }

  /**
   * {@link #ofTargets} of the head's logits for hidden states (B, C, D) and targets (B, C), over
   * the tiles {@link HeadTiles#of} picks. Each tile is a recomputation segment whose outputs are
   * (B, c) sums, so under {@code Remat.BLOCKS} the backward pass also holds one tile of logits at a
   * time.
   */
  public static TokenStats chunked(
      GraphBuilder g, Node hidden, Head head, int vocab, Node targets, Node temperature) {
    return chunked(g, hidden, head, vocab, targets, temperature, tilesOf(hidden, vocab));
  }

  /** The tiles {@link HeadTiles#of} picks for hidden states (B, C, D). */
  private static HeadTiles tilesOf(Node hidden, int vocab) {
    return HeadTiles.of(hidden.shape().dim(0), hidden.shape().dim(1), vocab);
  }

  private static TokenStats chunked(
      GraphBuilder g,
      Node hidden,
      Head head,
      int vocab,
      Node targets,
      Node temperature,
      HeadTiles tiles) {
    int c = hidden.shape().dim(1);
    if (tiles.columns() >= c && tiles.vocabBlock() >= vocab) {
      return ofTargets(g, head.logits(hidden, 0, vocab), targets, temperature);
    }
    List<Node> logp = new ArrayList<>();
    List<Node> entropy = new ArrayList<>();
    for (int c0 = 0; c0 < c; c0 += tiles.columns()) {
      int c1 = Math.min(c, c0 + tiles.columns());
      Columns cols = new Columns(hidden, targets, c0, c1);
      TokenStats s = columnChunk(g, cols, head, vocab, temperature, tiles.vocabBlock());
      logp.add(s.logp());
      entropy.add(s.entropy());
    }
    return logp.size() == 1
        ? new TokenStats(logp.get(0), entropy.get(0))
        : new TokenStats(g.concatenate(1, logp), g.concatenate(1, entropy));
  }

  /**
   * Columns [from, to) of the hidden states and targets, sliced inside the segment reading them.
   */
  private record Columns(Node hidden, Node targets, int from, int to) {
    Node hidden(GraphBuilder g) {
      return slice(g, hidden);
    }

    Node targets(GraphBuilder g) {
      return slice(g, targets);
    }

    private Node slice(GraphBuilder g, Node x) {
      return to - from == x.shape().dim(1) ? x : g.sliceAxis(x, 1, from, to);
    }
  }

  /** The stats of one column chunk: one segment, or one per vocabulary block combined. */
  private static TokenStats columnChunk(
      GraphBuilder g, Columns cols, Head head, int vocab, Node temperature, int block) {
    if (block >= vocab) {
      g.beginSegment();
      Node z = head.logits(cols.hidden(g), 0, vocab);
      TokenStats s = ofTargets(g, z, cols.targets(g), temperature);
      g.endSegment(s.logp(), s.entropy());
      return s;
    }
    List<VocabBlocks.Partial> parts = new ArrayList<>();
    for (int v0 = 0; v0 < vocab; v0 += block) {
      int v1 = Math.min(vocab, v0 + block);
      g.beginSegment();
      Node z = head.logits(cols.hidden(g), v0, v1);
      VocabBlocks.Partial p = VocabBlocks.partial(g, z, cols.targets(g), v0, temperature);
      g.endSegment(p.nodes());
      parts.add(p);
    }
    return VocabBlocks.combine(g, parts);
  }

  /**
   * Stats of {@code ids[:, 1:]} under logits (B, T, V): column t scores token t + 1.
   *
   * @param logits (B, T, V)
   * @param ids (B, T) i32
   * @param temperature f32 scalar τ
   */
  public static TokenStats of(GraphBuilder g, Node logits, Node ids, Node temperature) {
    int t = logits.shape().dim(1);
    Node next = nextTokens(g, ids);
    TokenStats all = ofTargets(g, logits, next, temperature);
    return withoutLastColumn(g, all, t);
  }

  /** The stats of columns [0, t - 1): the last column scored {@link #nextTokens}' dummy. */
  private static TokenStats withoutLastColumn(GraphBuilder g, TokenStats all, int t) {
    return new TokenStats(
        g.sliceAxis(all.logp(), 1, 0, t - 1), g.sliceAxis(all.entropy(), 1, 0, t - 1));
  }

  /** next[b, t] = ids[b, t+1]; the last column is a dummy whose result is sliced away. */
  private static Node nextTokens(GraphBuilder g, Node ids) {
    int b = ids.shape().dim(0);
    int t = ids.shape().dim(1);
    return g.concatenate(
        1, List.of(g.sliceAxis(ids, 1, 1, t), g.constant(0, DType.I32, Shape.of(b, 1))));
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
