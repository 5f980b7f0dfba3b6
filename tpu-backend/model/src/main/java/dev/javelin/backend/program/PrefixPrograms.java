package dev.javelin.backend.program;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.batch.TokenStats;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.model.AttentionMasks;
import dev.javelin.backend.model.DecoderModel;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.ModelWeights;
import dev.javelin.backend.model.RopeTable;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Log-probs of responses that share prompts ({@link PrefixBatch}), with each prompt run once.
 *
 * <p>All N = G·P + B·R token rows (prompts first, then responses) go through the per-token layers
 * (norms, projections, MLP) as one (1, N, D) sequence; only attention looks at the layout. Prompt
 * rows attend causally within their prompt; response row b attends to its prompt's keys (gathered
 * by {@code prefix_row}) and causally to its own earlier tokens. In the backward the gather becomes
 * a scatter-add, so the gradient reaching a prompt is the sum over its responses: the same gradient
 * as the dense layout, from 1/n of the prompt work.
 */
public final class PrefixPrograms {
  public static final String PREFIX_IDS = "prefix_ids";
  public static final String PREFIX_MASK = "prefix_mask";
  public static final String RESPONSE_IDS = "response_ids";
  public static final String RESPONSE_MASK = "response_mask";
  public static final String PREFIX_ROW = "prefix_row";
  public static final String SCORE_ROWS = "score_rows";

  private PrefixPrograms() {}

  /**
   * Parameters: weights, prefix_ids (G, P) i32, prefix_mask (G, P), response_ids (B, R) i32,
   * response_mask (B, R), prefix_row (B) i32, positions (N) i32, score_rows (B·R) i32 (the token
   * row whose hidden state predicts each response token), rope tables of {@code maxPos} positions,
   * temperature. Outputs: [logp (B, R), entropy (B, R)] of the response tokens, then for a
   * Mixture-of-Experts model the load-balancing loss over the unpadded token rows (f32 scalar). The
   * adapters of {@code lora} (parameters A, B after the weights) apply where it has any; the model
   * computes in {@code compute} (bf16: cast from the f32 weights).
   */
  public static Program logProbs(
      ModelConfig c, int groups, int p, int b, int r, int maxPos, LoraConfig lora, DType compute) {
    GraphBuilder g = new GraphBuilder(logProbsName(groups, p, b, r, lora, compute));
    ModelWeights w = ModelWeights.declare(g, c, DType.F32, lora).castTo(g, compute);
    Node prefixIds = g.parameter(PREFIX_IDS, DType.I32, Shape.of(groups, p));
    Node prefixMask = g.parameter(PREFIX_MASK, DType.F32, Shape.of(groups, p));
    Node responseIds = g.parameter(RESPONSE_IDS, DType.I32, Shape.of(b, r));
    Node responseMask = g.parameter(RESPONSE_MASK, DType.F32, Shape.of(b, r));
    Node prefixRow = g.parameter(PREFIX_ROW, DType.I32, Shape.of(b));
    int n = groups * p + b * r;
    Node positions = g.parameter(ModelPrograms.POSITIONS, DType.I32, Shape.of(n));
    Node scoreRows = g.parameter(SCORE_ROWS, DType.I32, Shape.of(b * r));
    int half = RopeTable.width(c);
    Shape table = Shape.of(maxPos, half);
    Node cos = g.gather(g.parameter(ModelPrograms.ROPE_COS, DType.F32, table), positions);
    Node sin = g.gather(g.parameter(ModelPrograms.ROPE_SIN, DType.F32, table), positions);
    Node temp = g.parameter(ModelPrograms.TEMPERATURE, DType.F32, Shape.scalar());

    Node ids =
        g.concatenate(0, List.of(g.reshape(prefixIds, groups * p), g.reshape(responseIds, b * r)));
    DecoderModel m = new DecoderModel(c);
    Node promptPos = g.reshape(g.sliceAxis(positions, 0, 0, groups * p), groups, p);
    Node responsePos = g.reshape(g.sliceAxis(positions, 0, groups * p, n), b, r);
    Node promptBias = AttentionMasks.causal(g, prefixMask);
    Layout layout =
        new Layout(
            m,
            groups,
            p,
            b,
            r,
            prefixRow,
            AttentionMasks.perLayer(g, c, promptBias, promptPos, promptPos),
            responseBias(g, c, prefixRow, prefixMask, responseMask, promptPos, responsePos));
    Node h =
        m.hidden(
            g,
            w,
            g.reshape(ids, 1, n),
            g.reshape(cos, 1, n, half),
            g.reshape(sin, 1, n, half),
            layout::attend); // (1, N, D)
    Node predictors = g.gather(g.reshape(h, n, c.hidden()), scoreRows); // (B·R, D)
    TokenStats st =
        TokenStats.chunked(
            g,
            g.reshape(predictors, b, r, c.hidden()),
            (x, from, to) -> m.logits(g, w, x, from, to),
            c.vocabSize(),
            responseIds,
            temp);
    Node aux = m.routerAuxLoss(g, tokenMask(g, prefixMask, responseMask));
    return g.build(ModelPrograms.withAuxLoss(List.of(st.logp(), st.entropy()), aux));
  }

  private static String logProbsName(int groups, int p, int b, int r, LoraConfig lora, DType dt) {
    return "prefix_logprobs_g"
        + groups
        + "_p"
        + p
        + "_b"
        + b
        + "_r"
        + r
        + (lora.enabled() ? "_lora" : "")
        + (lora.drops() ? "_drop" : "")
        + (dt == DType.F32 ? "" : "_" + dt.mlirName());
  }

  /**
   * The mask of the N token rows (prompts, then responses): the load-balancing loss counts each
   * prompt token once, as the program runs it once for its whole group.
   */
  private static Node tokenMask(GraphBuilder g, Node prefixMask, Node responseMask) {
    return g.concatenate(
        0,
        List.of(
            g.reshape(prefixMask, (int) prefixMask.shape().size()),
            g.reshape(responseMask, (int) responseMask.shape().size())));
  }

  /**
   * Each block's bias (B, R, P + R) of the responses: their prompt's real tokens, then the response
   * causally, narrowed to the window in sliding blocks. Positions: prompts' (G, P), responses' (B,
   * R).
   */
  private static IntFunction<Node> responseBias(
      GraphBuilder g,
      ModelConfig c,
      Node prefixRow,
      Node prefixMask,
      Node responseMask,
      Node promptPos,
      Node responsePos) {
    int b = responseMask.shape().dim(0);
    int r = responseMask.shape().dim(1);
    int p = prefixMask.shape().dim(1);
    Node promptKeys = AttentionMasks.keys(g, g.gather(prefixMask, prefixRow), Shape.of(b, r, p));
    Node bias = g.concatenate(2, List.of(promptKeys, AttentionMasks.causal(g, responseMask)));
    Node keyPos = g.concatenate(1, List.of(g.gather(promptPos, prefixRow), responsePos));
    return AttentionMasks.perLayer(g, c, bias, responsePos, keyPos);
  }

  /**
   * Attention over the prompt rows and the response rows of one {@link PrefixBatch} shape, under
   * each block's bias of the prompts (G, P, P) and of the responses (B, R, P + R).
   */
  private record Layout(
      DecoderModel m,
      int groups,
      int p,
      int b,
      int r,
      Node prefixRow,
      IntFunction<Node> promptBias,
      IntFunction<Node> responseBias) {

    /** q (1, N, H, Dh), k and v (1, N, Hkv, Dh) → context (1, N, H·Dh). */
    Node attend(GraphBuilder g, int layer, Node q, Node k, Node v) {
      int gp = groups * p;
      int br = b * r;
      Node kp = heads(g, k, 0, groups, p); // (G, Hkv, P, Dh)
      Node vp = heads(g, v, 0, groups, p);
      Node prompts = m.attention(g, heads(g, q, 0, groups, p), kp, vp, promptBias.apply(layer));
      // each response sees its prompt's keys, then its own: (B, Hkv, P + R, Dh)
      Node keys = g.concatenate(2, List.of(g.gather(kp, prefixRow), heads(g, k, gp, b, r)));
      Node values = g.concatenate(2, List.of(g.gather(vp, prefixRow), heads(g, v, gp, b, r)));
      Node responses =
          m.attention(g, heads(g, q, gp, b, r), keys, values, responseBias.apply(layer));
      int width = prompts.shape().dim(2);
      Node all =
          g.concatenate(0, List.of(g.reshape(prompts, gp, width), g.reshape(responses, br, width)));
      return g.reshape(all, 1, gp + br, width);
    }

    /** Rows [from, from + rows·len) of x (1, N, heads, Dh) as (rows, heads, len, Dh). */
    private static Node heads(GraphBuilder g, Node x, int from, int rows, int len) {
      int h = x.shape().dim(2);
      int dh = x.shape().dim(3);
      Node part = g.sliceAxis(x, 1, from, from + rows * len);
      return g.transpose(g.reshape(part, rows, len, h, dh), 0, 2, 1, 3);
    }
  }
}
