package dev.javelin.backend.model;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op.Direction;
import dev.javelin.backend.model.Architecture.LayerTensor;
import dev.javelin.backend.model.Architecture.TpSplit;
import java.util.List;

/**
 * A Mixture-of-Experts feed-forward (Qwen3-MoE's sparse block): a linear router gives each token
 * logits over E experts; their softmax (f32) picks the top k, whose probabilities (renormalised to
 * sum to 1 when {@code normTopKProb}) weight the outputs of those experts' gated MLPs.
 *
 * <p><b>Dense dispatch.</b> Every expert runs on every token, as two batched matrix products over
 * the stacked expert weights, and the tokens' outputs are summed with a gate that is zero outside
 * their top k. This costs E/k times the flops of the routed experts but has static shapes, drops no
 * token (a capacity-bounded gather would, once an expert's capacity fills) and gives exactly the
 * routed result, so it matches transformers token for token; the stacked weights split along the
 * expert axis under {@code fsdp}. Top-k is k rounds of max-and-mask; among equal probabilities the
 * lowest expert index wins, as {@code torch.topk} picks on CPU.
 *
 * @param experts E
 * @param topK k experts per token
 * @param intermediate each expert's MLP width F
 * @param normTopKProb divide the k chosen probabilities by their sum
 */
public record MoeFeedForward(int experts, int topK, int intermediate, boolean normTopKProb)
    implements FeedForward {

  // Module paths inside a block, as transformers names the parameters of its experts module.
  static final String ROUTER = "mlp.gate.weight";
  static final String GATE_UP = "mlp.experts.gate_up_proj";
  static final String DOWN = "mlp.experts.down_proj";

  public MoeFeedForward {
    if (experts <= 0 || topK <= 0 || topK > experts || intermediate <= 0) {
      throw new IllegalArgumentException(
          "Mixture-of-Experts needs 0 < num_experts_per_tok <= num_experts and a positive"
              + " moe_intermediate_size, got "
              + topK
              + " of "
              + experts
              + ", width "
              + intermediate);
    }
  }

  /**
   * The router (E, D), the experts' gate and up rows stacked (E, 2F, D) and their down projections
   * (E, D, F). Tensor parallelism leaves them whole; fsdp splits their first axis, the experts.
   * LoRA does not adapt them (transformers' experts are not {@code nn.Linear} modules PEFT names).
   */
  @Override
  public List<LayerTensor> tensors(ModelConfig c) {
    int d = c.hidden();
    int f = intermediate;
    return List.of(
        new LayerTensor(ROUTER, Shape.of(experts, d), "ffn_gate_inp.weight", TpSplit.NONE, null),
        new LayerTensor(
            GATE_UP, Shape.of(experts, 2 * f, d), "ffn_gate_up_exps.weight", TpSplit.NONE, null),
        new LayerTensor(DOWN, Shape.of(experts, d, f), "ffn_down_exps.weight", TpSplit.NONE, null));
  }

  @Override
  public Node apply(GraphBuilder g, ModelWeights w, int i, Node x, List<Node> routerLogits) {
    Shape in = x.shape();
    int d = in.dim(in.rank() - 1);
    Node flat = g.reshape(x, (int) (in.size() / d), d); // (N, D)
    // transformers: logits in the activations' type, softmax in f32
    Node logits =
        g.convert(NeuralOps.matmulTransposed(g, flat, w.layer(i, ROUTER), x.dtype()), DType.F32);
    routerLogits.add(logits);
    Node gate = g.convert(gate(g, logits), x.dtype()); // (N, E), zero outside the top k
    Node y = experts(g, flat, w.layer(i, GATE_UP), w.layer(i, DOWN)); // (E, N, D)
    Node out = g.dotGeneral(y, gate, new int[] {1}, new int[] {0}, new int[] {0}, new int[] {1});
    return g.reshape(out, in);
  }

  /** 1 where a token goes to an expert, else 0 (N, E) f32: the routing decisions of logits. */
  public Node routes(GraphBuilder g, Node logits) {
    return topKMask(g, g.stopGradient(NeuralOps.softmax(g, logits)), topK);
  }

  /** The weights of the experts per token (N, E) f32: top-k probabilities, others 0. */
  Node gate(GraphBuilder g, Node logits) {
    Node kept = g.mul(NeuralOps.softmax(g, logits), routes(g, logits));
    if (!normTopKProb) {
      return kept;
    }
    return g.div(kept, NeuralOps.broadcastKeep(g, g.reduceSum(kept, 1), kept.shape()));
  }

  /**
   * 1 at each row's k largest entries of p (N, E), else 0 (f32), by k rounds of max-and-mask; among
   * equal values the lowest index. p must not carry gradients (the choice is discrete).
   */
  static Node topKMask(GraphBuilder g, Node p, int k) {
    Shape s = p.shape();
    int e = s.dim(1);
    Node iota = g.iota(DType.F32, s, 1);
    Node negIota = g.neg(iota);
    Node none = g.constant(-e, DType.F32, s);
    Node taken = g.constant(-1, DType.F32, s); // below every probability
    Node mask = g.constant(0, DType.F32, s);
    Node avail = p;
    for (int r = 0; r < k; r++) {
      Node top = NeuralOps.broadcastKeep(g, g.reduceMax(avail, 1), s);
      Node atTop = g.compare(avail, top, Direction.EQ);
      // lowest index among the maxima: the max of -index over them
      Node first = g.neg(g.reduceMax(g.select(atTop, negIota, none), 1));
      Node pick = g.compare(iota, NeuralOps.broadcastKeep(g, first, s), Direction.EQ);
      mask = g.select(pick, g.constant(1, DType.F32, s), mask);
      avail = g.select(pick, taken, avail);
    }
    return mask;
  }

  /**
   * transformers' {@code load_balancing_loss_func}: {@code E · Σ_e f_e · P_e}, where over the
   * tokens of every routed layer with {@code mask} (N) 1, f_e is the number of top-k picks of
   * expert e per token and P_e the mean router probability of e. Gradients reach the router through
   * P only.
   *
   * @param routerLogits each routed layer's router logits (N, E) f32
   */
  public Node auxLoss(GraphBuilder g, List<Node> routerLogits, Node mask) {
    Node picks = null;
    Node probs = null;
    for (Node logits : routerLogits) {
      Shape s = logits.shape();
      Node m = g.broadcastInDim(mask, s, 0);
      Node layerPicks = g.reduceSum(g.mul(routes(g, logits), m), 0);
      Node layerProbs = g.reduceSum(g.mul(NeuralOps.softmax(g, logits), m), 0);
      picks = picks == null ? layerPicks : g.add(picks, layerPicks);
      probs = probs == null ? layerProbs : g.add(probs, layerProbs);
    }
    if (picks == null) {
      return g.scalar(0);
    }
    Node rows = g.mul(g.reduceSum(mask, 0), g.scalar(routerLogits.size()));
    Node rows2 = g.mul(rows, rows);
    Node dot = g.reduceSum(g.mul(picks, probs), 0);
    return g.mul(g.div(dot, rows2), g.scalar(experts));
  }

  /** Every expert's gated MLP on every token: x (N, D) to (E, N, D). */
  private Node experts(GraphBuilder g, Node x, Node gateUp, Node down) {
    int[] none = new int[0];
    DType wide = NeuralOps.wide(x.dtype());
    Node gu = g.dotGeneral(x, gateUp, none, none, new int[] {1}, new int[] {2}, wide);
    gu = g.convert(g.transpose(gu, 1, 0, 2), x.dtype()); // (E, N, 2F)
    Node act =
        g.mul(
            NeuralOps.silu(g, g.sliceAxis(gu, 2, 0, intermediate)),
            g.sliceAxis(gu, 2, intermediate, 2 * intermediate));
    int[] batch = {0};
    Node y = g.dotGeneral(act, down, batch, batch, new int[] {2}, new int[] {2}, wide);
    return g.convert(y, x.dtype());
  }
}
