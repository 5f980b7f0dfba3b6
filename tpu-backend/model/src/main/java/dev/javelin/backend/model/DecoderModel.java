package dev.javelin.backend.model;

import static dev.javelin.backend.model.BlockTensors.INPUT_NORM;
import static dev.javelin.backend.model.BlockTensors.K_NORM;
import static dev.javelin.backend.model.BlockTensors.K_PROJ;
import static dev.javelin.backend.model.BlockTensors.O_PROJ;
import static dev.javelin.backend.model.BlockTensors.POST_ATTENTION_NORM;
import static dev.javelin.backend.model.BlockTensors.POST_FEEDFORWARD_NORM;
import static dev.javelin.backend.model.BlockTensors.PRE_FEEDFORWARD_NORM;
import static dev.javelin.backend.model.BlockTensors.Q_NORM;
import static dev.javelin.backend.model.BlockTensors.Q_PROJ;
import static dev.javelin.backend.model.BlockTensors.V_PROJ;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The decoder written as a graph: {@code h = embed(ids)}; per layer {@code h += o(attn(rope(qn(q(n1
 * h))), rope(kn(k(n1 h))), v(n1 h)))} and {@code h += down(silu(gate(n2 h)) · up(n2 h))}; then
 * {@code norm(h) W_head^T}. The {@link Architecture}'s {@link Architecture.Block} says which parts
 * a block has (qn, kn: per-head q/k RMSNorm; sandwich norms of the attention's and feed-forward's
 * outputs; scaled embeddings; RMSNorm scales stored as an offset from 1), its {@link FeedForward}
 * of each block replaces the gated MLP where it is another (a Mixture-of-Experts layer), and its
 * {@link Architecture.LayerAttention} of each block picks the rotary table and the sliding window.
 * Attention is causal grouped-query attention with an additive bias that carries the causal,
 * padding and window masks.
 */
public final class DecoderModel {
  /** Added to masked attention scores; exp underflows to exactly 0 in f32. */
  static final double MASKED = -1e9;

  private final ModelConfig c;
  private final Architecture.Block block;
  private final List<Node> routerLogits = new ArrayList<>();
  private Node scannedRouterLogits;

  public DecoderModel(ModelConfig config) {
    this.c = config;
    this.block = config.architecture().block();
  }

  public ModelConfig config() {
    return c;
  }

  /**
   * How one layer's tokens attend to each other: rotated queries (B, T, H, Dh) and keys, values (B,
   * T, Hkv, Dh) in, context (B, T, H·Dh) out. {@link #dense} is every row on its own; {@link
   * PrefixPrograms} shares each prompt's keys between the responses that follow it.
   */
  @FunctionalInterface
  public interface Attention {
    Node attend(GraphBuilder g, int layer, Node q, Node k, Node v);
  }

  /**
   * Each row attends within itself under its block's {@code bias} (B, T, S), keys and values
   * through kv.
   */
  public Attention dense(IntFunction<Node> bias, KvPolicy kv) {
    return (g, layer, q, k, v) -> {
      KvPolicy.Kv kvs = kv.apply(layer, g.transpose(k, 0, 2, 1, 3), g.transpose(v, 0, 2, 1, 3));
      return attention(g, g.transpose(q, 0, 2, 1, 3), kvs.keys(), kvs.values(), bias.apply(layer));
    };
  }

  /**
   * Final hidden states (B, T, D), after the last RMSNorm.
   *
   * @param ids token ids (B, T) i32
   * @param cos rotary cosines gathered at each token's position (B, T, {@link RopeTable#width})
   * @param sin rotary sines (B, T, {@link RopeTable#width})
   * @param layout how each block's tokens attend: {@link #dense} with each block's additive bias
   *     (B, T, S) from {@link AttentionMasks#perLayer}, or a shared-prefix layout
   */
  public Node hidden(
      GraphBuilder g, ModelWeights w, Node ids, Node cos, Node sin, Attention layout) {
    Node h = g.batchMajor(embed(g, w, ids)); // (B, T, D)
    for (int i = 0; i < c.layers(); i++) {
      // One recomputation segment per block: under Remat.BLOCKS only h crosses to the backward.
      g.beginSegment();
      h = layer(g, w, i, h, cos, sin, layout);
      g.endSegment(h);
      g.batchMajor(h); // kept split over the batch between blocks (a sharded program)
    }
    return finalNorm(g, w, h);
  }

  /** The hidden states (B, T, D) after block i of h (its weights {@code w.layer(i, ...)}). */
  Node layer(GraphBuilder g, ModelWeights w, int i, Node h, Node cos, Node sin, Attention layout) {
    int rope = c.architecture().attention(i).rope();
    return layerRotatedBy(
        g, w, i, h, ropeColumns(g, cos, rope), ropeColumns(g, sin, rope), layout, routerLogits);
  }

  /**
   * As {@link #layer} with block i's own rotary columns already taken from the tables (B, T, Dh/2)
   * (the scanned blocks pick them per layer inside the loop), a routed block adding its router
   * logits to {@code router}.
   */
  Node layerRotatedBy(
      GraphBuilder g,
      ModelWeights w,
      int i,
      Node h,
      Node cos,
      Node sin,
      Attention layout,
      List<Node> router) {
    Node a = attentionBlock(g, w, i, norm(g, w, i, INPUT_NORM, h), cos, sin, layout);
    h = g.add(h, joining(g, w, i, POST_ATTENTION_NORM, a));
    Node x = norm(g, w, i, block.sandwichNorms() ? PRE_FEEDFORWARD_NORM : POST_ATTENTION_NORM, h);
    Node f = c.architecture().feedForward(i).apply(g, w, i, x, router);
    return g.add(h, joining(g, w, i, POST_FEEDFORWARD_NORM, f));
  }

  Node finalNorm(GraphBuilder g, ModelWeights w, Node h) {
    return rmsNorm(g, h, w.get(WeightSpec.FINAL_NORM));
  }

  /**
   * A part's output as it joins the residual stream: normed by {@code path} in a sandwich block.
   */
  private Node joining(GraphBuilder g, ModelWeights w, int i, String path, Node out) {
    return block.sandwichNorms() ? norm(g, w, i, path, out) : out;
  }

  /** The embeddings of ids, times {@code sqrt(D)} rounded to their type where the block says. */
  Node embed(GraphBuilder g, ModelWeights w, Node ids) {
    Node e = g.gather(w.get(WeightSpec.EMBED), ids);
    return block.embedScale() ? g.mul(e, g.full(e, Math.sqrt(c.hidden()))) : e;
  }

  /**
   * As {@link #hidden(GraphBuilder, ModelWeights, Node, Node, Node, Attention)} with causal
   * attention and {@link KvPolicy#SELF}, the blocks run by {@code layers}: unrolled, or as one loop
   * over the layer weights stacked inside the program ({@link ScannedLayers}) where the model
   * allows it.
   */
  public Node hidden(
      GraphBuilder g,
      ModelWeights w,
      Node ids,
      Node cos,
      Node sin,
      CausalAttention attention,
      LayerLoop layers) {
    if (layers == LayerLoop.SCANNED && ScannedLayers.supports(c, w)) {
      return ScannedLayers.hidden(g, this, w, ids, cos, sin, attention);
    }
    return hidden(g, w, ids, cos, sin, attention.layout(this));
  }

  /** Logits (..., V) of final hidden states (..., D); f32 for bf16 weights (log-probs in f32). */
  public Node logits(GraphBuilder g, ModelWeights w, Node hidden) {
    return logits(g, w, hidden, 0, c.vocabSize());
  }

  /**
   * Logits of vocabulary entries [from, to) only: the head's rows sliced, for a head computed over
   * vocabulary blocks ({@link dev.javelin.backend.batch.TokenStats#ofHidden}).
   */
  public Node logits(GraphBuilder g, ModelWeights w, Node hidden, int from, int to) {
    Node head = headRows(w);
    return logitsOfRows(
        g, hidden, to - from == c.vocabSize() ? head : g.sliceAxis(head, 0, from, to));
  }

  /** The LM head's weight (V, D): the embedding's when the two are tied. */
  public Node headRows(ModelWeights w) {
    return c.tieWordEmbeddings() ? w.get(WeightSpec.EMBED) : w.get(WeightSpec.LM_HEAD);
  }

  /** Logits (..., Vb) of hidden states (..., D) for some of the head's rows (Vb, D). */
  public Node logitsOfRows(GraphBuilder g, Node hidden, Node rows) {
    Node logits = NeuralOps.matmulTransposed(g, hidden, rows, NeuralOps.wide(hidden.dtype()));
    return NeuralOps.softcap(g, logits, block.finalSoftcap());
  }

  /**
   * The router logits (B·T, E) f32 of each routed block of the graphs {@link #hidden} built
   * unrolled, in block order (empty for dense models): the routing decisions and the load-balancing
   * loss.
   */
  public List<Node> routerLogits() {
    return List.copyOf(routerLogits);
  }

  /**
   * The load-balancing loss ({@link MoeFeedForward#auxLoss}) over every routed block {@link
   * #hidden} built, counting the tokens where {@code mask} (the attention mask, any shape of B·T
   * elements) is 1; null for a model with no routed block, which has none to report.
   */
  public Node routerAuxLoss(GraphBuilder g, Node mask) {
    if (routerLogits.isEmpty() && scannedRouterLogits == null) {
      return null;
    }
    MoeFeedForward moe = null;
    for (int i = 0; i < c.layers() && moe == null; i++) {
      if (c.architecture().feedForward(i) instanceof MoeFeedForward f) {
        moe = f;
      }
    }
    Node flat = g.convert(g.reshape(mask, (int) mask.shape().size()), DType.F32);
    if (scannedRouterLogits == null) {
      return moe.auxLoss(g, routerLogits, flat);
    }
    // Every layer's rows as one, the mask tiled over the layers: transformers concatenates the
    // layers' logits so too, and the loss's sums over rows are the unrolled sums over layers.
    Shape s = scannedRouterLogits.shape(); // (L, B·T, E)
    int rows = s.dim(0) * s.dim(1);
    Node logits = g.reshape(scannedRouterLogits, rows, s.dim(2));
    Node tiled = g.reshape(g.broadcastInDim(flat, Shape.of(s.dim(0), s.dim(1)), 1), rows);
    return moe.auxLoss(g, List.of(logits), tiled);
  }

  /** The router logits (L, B·T, E) of the routed blocks {@link ScannedLayers} ran in its loop. */
  void scannedRouterLogits(Node stacked) {
    scannedRouterLogits = stacked;
  }

  private Node attentionBlock(
      GraphBuilder g, ModelWeights w, int i, Node x, Node cos, Node sin, Attention layout) {
    int t = x.shape().dim(1);
    Node q = headNorm(g, w, i, Q_NORM, project(g, w, i, Q_PROJ, x, c.heads(), t)); // B,T,H,Dh
    Node k = headNorm(g, w, i, K_NORM, project(g, w, i, K_PROJ, x, c.kvHeads(), t));
    Node v = project(g, w, i, V_PROJ, x, c.kvHeads(), t);
    Node qr = rotate(g, q, cos, sin);
    Node kr = rotate(g, k, cos, sin);
    Node out = layout.attend(g, i, qr, kr, v); // (B,T,H·Dh)
    return w.linear(g, i, O_PROJ, out);
  }

  /** The columns of rotary base {@code rope} of a gathered table (B, T, R·Dh/2). */
  Node ropeColumns(GraphBuilder g, Node table, int rope) {
    if (c.architecture().ropes(c).size() == 1) {
      return table;
    }
    int half = c.headDim() / 2;
    return g.sliceAxis(table, table.shape().rank() - 1, rope * half, (rope + 1) * half);
  }

  private Node project(
      GraphBuilder g, ModelWeights w, int i, String proj, Node x, int heads, int t) {
    Node y = w.linear(g, i, proj, x);
    return g.reshape(y, x.shape().dim(0), t, heads, c.headDim());
  }

  /** Per-head RMSNorm over Dh of (B, T, heads, Dh) where the block has one (Qwen3), else x. */
  private Node headNorm(GraphBuilder g, ModelWeights w, int i, String path, Node x) {
    return block.qkNorm() ? norm(g, w, i, path, x) : x;
  }

  /** The RMSNorm {@code path} of block i over x's last axis. */
  private Node norm(GraphBuilder g, ModelWeights w, int i, String path, Node x) {
    return rmsNorm(g, x, w.layer(i, path + ".weight"));
  }

  private Node rmsNorm(GraphBuilder g, Node x, Node scale) {
    return NeuralOps.rmsNorm(g, x, scale, c.rmsNormEps(), block.normOffset());
  }

  /**
   * Rotary embedding in the rotate-half layout: with x = [x1, x2], {@code [x1 cos - x2 sin, x2 cos
   * + x1 sin]}. x (B, T, heads, Dh); cos, sin (B, T, Dh/2).
   */
  private Node rotate(GraphBuilder g, Node x, Node cos, Node sin) {
    int half = c.headDim() / 2;
    Shape hs = halfShape(x.shape(), half);
    // The tables come in f32; a bf16 model rotates in bf16, as Hugging Face models do.
    Node cb = g.broadcastInDim(g.convert(cos, x.dtype()), hs, 0, 1, 3);
    Node sb = g.broadcastInDim(g.convert(sin, x.dtype()), hs, 0, 1, 3);
    Node x1 = g.sliceAxis(x, 3, 0, half);
    Node x2 = g.sliceAxis(x, 3, half, 2 * half);
    Node r1 = g.sub(g.mul(x1, cb), g.mul(x2, sb));
    Node r2 = g.add(g.mul(x2, cb), g.mul(x1, sb));
    return g.concatenate(3, List.of(r1, r2));
  }

  private static Shape halfShape(Shape s, int half) {
    return Shape.of(s.dim(0), s.dim(1), s.dim(2), half);
  }

  /**
   * Grouped-query attention: the G = H/Hkv query heads sharing a key/value head are stacked into
   * the rows of one matrix product, so keys are never repeated. q (B, H, T, Dh); k, v (B, Hkv, S,
   * Dh); bias (B, T, S). Returns (B, T, H·Dh). With bf16 q, k, v the scores, bias and softmax are
   * f32 (products accumulate in f32) and the probabilities are rounded to bf16 for the value
   * product.
   */
  public Node attention(GraphBuilder g, Node q, Node k, Node v, Node bias) {
    int b = q.shape().dim(0);
    int t = q.shape().dim(2);
    int s = k.shape().dim(2);
    int hkv = c.kvHeads();
    int grp = c.groupSize();
    Node q4 = grouped(g, q);
    int[] batch = {0, 1};
    DType wide = NeuralOps.wide(q.dtype());
    Node scores =
        g.dotGeneral(q4, k, batch, batch, new int[] {3}, new int[] {3}, wide); // (B,Hkv,GT,S)
    Shape s5 = Shape.of(b, hkv, grp, t, s);
    Node biased = g.add(g.reshape(scores, s5), g.broadcastInDim(bias, s5, 0, 3, 4));
    Node probs = g.convert(g.reshape(NeuralOps.softmax(g, biased), b, hkv, grp * t, s), v.dtype());
    Node wideCtx = g.dotGeneral(probs, v, batch, batch, new int[] {3}, new int[] {2}, wide);
    return merged(g, g.convert(wideCtx, v.dtype()), t);
  }

  /**
   * Each row attends causally within itself over blocks of {@code block} keys with an online
   * softmax ({@link BlockwiseAttention}): memory linear in the sequence. {@code window} gives each
   * layer's i32 window scalar (a key is visible while fewer than that many positions back).
   */
  public Attention blockwise(
      BlockwiseAttention.Keys keys, Node positions, IntFunction<Node> window, int block) {
    return (g, layer, q, k, v) -> {
      Node q4 = grouped(g, g.transpose(q, 0, 2, 1, 3));
      Node kt = g.transpose(k, 0, 2, 1, 3);
      Node vt = g.transpose(v, 0, 2, 1, 3);
      Node ctx =
          BlockwiseAttention.attend(g, q4, kt, vt, keys, positions, window.apply(layer), block);
      return merged(g, ctx, q.shape().dim(1));
    };
  }

  /** q (B, H, T, Dh) scaled and grouped by key/value head: (B, Hkv, G·T, Dh). */
  private Node grouped(GraphBuilder g, Node q) {
    double scalar = block.queryPreAttnScalar() > 0 ? block.queryPreAttnScalar() : c.headDim();
    Node qs = g.mul(q, g.full(q, 1.0 / Math.sqrt(scalar)));
    return g.reshape(
        qs, q.shape().dim(0), c.kvHeads(), c.groupSize() * q.shape().dim(2), c.headDim());
  }

  /** The grouped context (B, Hkv, G·T, Dh) as (B, T, H·Dh). */
  private Node merged(GraphBuilder g, Node ctx, int t) {
    int b = ctx.shape().dim(0);
    int dh = c.headDim();
    Node heads = g.transpose(g.reshape(ctx, b, c.heads(), t, dh), 0, 2, 1, 3); // (B,T,H,Dh)
    return g.reshape(heads, b, t, c.heads() * dh);
  }
}
