package dev.javelin.backend.program;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.batch.HeadLogits;
import dev.javelin.backend.batch.TokenStats;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.model.AttentionMasks;
import dev.javelin.backend.model.CausalAttention;
import dev.javelin.backend.model.DecoderModel;
import dev.javelin.backend.model.KvPolicy;
import dev.javelin.backend.model.LayerLoop;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.ModelWeights;
import dev.javelin.backend.model.RopeTable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Builders of the static-shape programs the framework runs. Parameters are the weights (HF names,
 * {@link WeightSpec} order) followed by the named inputs below; outputs are documented per program.
 * Rotary tables of P positions are inputs ({@link RopeTable}); ids and positions are i32; masks
 * f32.
 */
public final class ModelPrograms {
  public static final String INPUT_IDS = "input_ids";
  public static final String POSITIONS = "positions";
  public static final String ATTENTION_MASK = "attention_mask";
  public static final String ROPE_COS = "rope_cos";
  public static final String ROPE_SIN = "rope_sin";
  public static final String TEMPERATURE = "temperature";

  private ModelPrograms() {}

  public static String cacheKey(int layer) {
    return "cache.k." + layer;
  }

  public static String cacheValue(int layer) {
    return "cache.v." + layer;
  }

  /**
   * The weights and token inputs shared by every program: {@code weights} are the parameters (the
   * f32 masters), {@code compute} the copy the model runs on (the same nodes unless mixed).
   */
  record Inputs(
      ModelWeights weights,
      ModelWeights compute,
      Node ids,
      Node positions,
      Node mask,
      Node cos,
      Node sin) {
    /** These inputs with the model computing in {@code dtype} (bf16: mixed precision). */
    Inputs computingIn(GraphBuilder g, DType dtype) {
      return new Inputs(weights, weights.castTo(g, dtype), ids, positions, mask, cos, sin);
    }
  }

  static Inputs declare(GraphBuilder g, ModelConfig c, int b, int t, int p) {
    return declare(g, c, b, t, p, DType.F32);
  }

  /** As above with float inputs of {@code dtype} (F64 for finite-difference checks). */
  static Inputs declare(GraphBuilder g, ModelConfig c, int b, int t, int p, DType dtype) {
    return declare(g, c, b, t, p, dtype, LoraConfig.NONE);
  }

  /** As above with the adapters of {@code lora} after the weights. */
  static Inputs declare(
      GraphBuilder g, ModelConfig c, int b, int t, int p, DType dtype, LoraConfig lora) {
    return declare(g, c, b, t, p, ModelWeights.declare(g, c, dtype, lora), dtype);
  }

  /**
   * f32 token inputs with the weight parameters already in {@code weights}' type: the decoding
   * programs take a bf16 copy of the weights made once per weight load ({@link #castWeights}), not
   * cast on every step.
   */
  static Inputs declareDecoding(
      GraphBuilder g, ModelConfig c, int b, int t, int p, DType weights, LoraConfig lora) {
    checkDecodeType(weights);
    ModelWeights w = ModelWeights.declare(g, c, weights, DType.F32, lora).castTo(g, weights);
    return declare(g, c, b, t, p, w, DType.F32);
  }

  /** A program-name suffix for decoding through adapters: {@code _lora}, else empty. */
  public static String loraSuffix(LoraConfig lora) {
    return lora.enabled() ? "_lora" : "";
  }

  /** Decoding computes in f32 or bf16 (mixed precision). */
  public static void checkDecodeType(DType dtype) {
    if (dtype != DType.F32 && dtype != DType.BF16) {
      throw new IllegalArgumentException("decoding computes in f32 or bf16, not " + dtype);
    }
  }

  private static Inputs declare(
      GraphBuilder g, ModelConfig c, int b, int t, int p, ModelWeights w, DType dtype) {
    Node ids = g.parameter(INPUT_IDS, DType.I32, Shape.of(b, t));
    Node pos = g.parameter(POSITIONS, DType.I32, Shape.of(b, t));
    Node mask = g.parameter(ATTENTION_MASK, dtype, Shape.of(b, t));
    Shape table = Shape.of(p, RopeTable.width(c));
    Node cosT = g.parameter(ROPE_COS, dtype, table);
    Node sinT = g.parameter(ROPE_SIN, dtype, table);
    return new Inputs(w, w, ids, pos, mask, g.gather(cosT, pos), g.gather(sinT, pos));
  }

  /** Each block's causal and padding bias (B, T, T), within its window where it has one. */
  static IntFunction<Node> causal(GraphBuilder g, ModelConfig c, Inputs in) {
    Node bias = AttentionMasks.causal(g, in.mask());
    return AttentionMasks.perLayer(g, c, bias, in.positions(), in.positions());
  }

  /** Logits (B, T, V) of a right- or left-padded batch. Output: [logits]. */
  public static Program forward(ModelConfig c, int b, int t, int p) {
    GraphBuilder g = new GraphBuilder("forward_b" + b + "_t" + t);
    return g.build(forwardLogits(g, c, declare(g, c, b, t, p)));
  }

  static Node forwardLogits(GraphBuilder g, ModelConfig c, Inputs in) {
    DecoderModel m = new DecoderModel(c);
    DecoderModel.Attention layout = m.dense(causal(g, c, in), KvPolicy.SELF);
    Node h = m.hidden(g, in.compute(), in.ids(), in.cos(), in.sin(), layout);
    return m.logits(g, in.compute(), h);
  }

  /**
   * Per-token log-probs and entropies of {@code ids[:, 1:]} at temperature {@code temperature} (f32
   * scalar input). Outputs: [logp (B, T-1), entropy (B, T-1)], then for a Mixture-of-Experts model
   * the load-balancing loss over the tokens of the attention mask (f32 scalar).
   */
  public static Program logProbs(ModelConfig c, int b, int t, int p) {
    return logProbs(c, b, t, p, LoraConfig.NONE);
  }

  /** As above through the adapters of {@code lora} (parameters A, B after the weights). */
  public static Program logProbs(ModelConfig c, int b, int t, int p, LoraConfig lora) {
    return logProbs(c, b, t, p, lora, DType.F32);
  }

  /**
   * As above with the model computing in {@code compute}: with {@link DType#BF16} the f32 weight
   * parameters are cast to bf16 in the program, activations are bf16, and norms, softmax, logits
   * and log-probs are f32 (mixed precision). Inputs and outputs stay f32.
   */
  public static Program logProbs(
      ModelConfig c, int b, int t, int p, LoraConfig lora, DType compute) {
    GraphBuilder g =
        new GraphBuilder(
            "logprobs_b"
                + b
                + "_t"
                + t
                + (lora.enabled() ? "_lora" : "")
                + (lora.drops() ? "_drop" : "")
                + suffix(compute));
    Inputs in = declare(g, c, b, t, p, DType.F32, lora).computingIn(g, compute);
    Node temp = g.parameter(TEMPERATURE, DType.F32, Shape.scalar());
    DecoderModel m = new DecoderModel(c);
    TokenStats st = tokenStats(g, c, in, temp, m);
    return g.build(withAuxLoss(List.of(st.logp(), st.entropy()), m.routerAuxLoss(g, in.mask())));
  }

  /**
   * {@code outs}, then the routed blocks' load-balancing loss (an f32 scalar) when the model has
   * one: a Mixture-of-Experts log-prob program's third output, which a train step reports and may
   * add to its loss.
   */
  static List<Node> withAuxLoss(List<Node> outs, Node auxLoss) {
    List<Node> all = new ArrayList<>(outs);
    if (auxLoss != null) {
      all.add(auxLoss);
    }
    return all;
  }

  /**
   * Log-probs and entropies of {@code ids[:, 1:]} through the model, the LM head computed in tiles
   * ({@link TokenStats#ofHidden}) so the full (B, T, V) logits are never held. The layers run as
   * {@link LayerLoop#configured} says (the train step and the log-prob programs share this);
   * scanned layers also run the head's vocabulary blocks as a loop ({@link
   * TokenStats#ofHiddenLooped}).
   */
  static TokenStats tokenStats(GraphBuilder g, ModelConfig c, Inputs in, Node temperature) {
    return tokenStats(g, c, in, temperature, new DecoderModel(c));
  }

  /** As above through {@code m}, whose router logits the caller may read afterwards. */
  static TokenStats tokenStats(
      GraphBuilder g, ModelConfig c, Inputs in, Node temperature, DecoderModel m) {
    LayerLoop layers = LayerLoop.configured();
    Node h =
        m.hidden(
            g,
            in.compute(),
            in.ids(),
            in.cos(),
            in.sin(),
            CausalAttention.of(g, c, in.mask(), in.positions(), CausalAttention.configuredBlock()),
            layers);
    if (layers == LayerLoop.SCANNED) { // the head's vocabulary blocks as a loop too
      Node rows = m.headRows(in.compute());
      int blocks = TokenStats.loopBlocks(h, rows.shape().dim(0));
      return TokenStats.ofHiddenLooped(
          g, h, rows, m::logitsOfRows, in.ids(), temperature, blocks, HeadLogits.configured());
    }
    return TokenStats.ofHidden(
        g,
        h,
        (x, from, to) -> m.logits(g, in.compute(), x, from, to),
        c.vocabSize(),
        in.ids(),
        temperature);
  }

  /**
   * Prefill of right-padded prompts (B, T) into a cache of S slots. Outputs: [logits of each row's
   * last real token (B, V), key mask (B, S), then per layer its key and value cache (B, Hkv, S,
   * Dh)].
   */
  public static Program prefill(ModelConfig c, int b, int t, int s, int p) {
    return prefill(c, b, t, s, p, DType.F32, LoraConfig.NONE);
  }

  /**
   * As above computing in {@code compute} through the adapters of {@code lora} (parameters A, B
   * after the weights; none with {@link LoraConfig#NONE}). With {@link DType#BF16} the weight
   * parameters are the bf16 copy ({@link #castWeights}), activations and the caches are bf16, while
   * RMSNorm, attention scores and softmax and the logits are f32 and matrix products accumulate in
   * f32 (as in the mixed-precision {@link #logProbs}). Token inputs, adapters and the logits stay
   * f32.
   */
  public static Program prefill(
      ModelConfig c, int b, int t, int s, int p, DType compute, LoraConfig lora) {
    if (t > s) {
      throw new IllegalArgumentException("prefill length " + t + " exceeds cache slots " + s);
    }
    GraphBuilder g =
        new GraphBuilder(
            "prefill_b" + b + "_t" + t + "_s" + s + loraSuffix(lora) + suffix(compute));
    Inputs in = declareDecoding(g, c, b, t, p, compute, lora);
    Node zero = g.constant(0, DType.I32, Shape.scalar());
    Shape cacheShape = Shape.of(b, c.kvHeads(), s, c.headDim());
    List<Node> caches = new ArrayList<>();
    KvPolicy write =
        (layer, k, v) -> {
          List<Node> at = List.of(zero, zero, zero, zero);
          caches.add(g.dynamicUpdateSlice(g.constant(0, k.dtype(), cacheShape), k, at));
          caches.add(g.dynamicUpdateSlice(g.constant(0, v.dtype(), cacheShape), v, at));
          return new KvPolicy.Kv(k, v);
        };
    DecoderModel m = new DecoderModel(c);
    Node h =
        m.hidden(g, in.weights(), in.ids(), in.cos(), in.sin(), m.dense(causal(g, c, in), write));
    Node lengths = g.reduceSum(in.mask(), 1); // (B)
    Node rowStart = g.mul(g.iota(DType.F32, Shape.of(b), 0), g.full(lengths, t));
    Node last = g.convert(g.add(rowStart, g.sub(lengths, g.full(lengths, 1))), DType.I32);
    Node lastHidden = g.gather(g.reshape(h, b * t, c.hidden()), last); // (B, D)
    Node keyMask =
        g.dynamicUpdateSlice(
            g.constant(0, DType.F32, Shape.of(b, s)), in.mask(), List.of(zero, zero));
    List<Node> outs = new ArrayList<>();
    outs.add(m.logits(g, in.weights(), lastHidden));
    outs.add(keyMask);
    outs.addAll(caches);
    return g.build(outs);
  }

  /** A program-name suffix for a compute type: empty for f32, else {@code _bf16}. */
  public static String suffix(DType compute) {
    return compute == DType.F32 ? "" : "_" + compute.mlirName();
  }

  /**
   * Converts every f32 weight to {@code to}: parameters are the weights (HF names, layout order),
   * outputs the converted copies in the same order. Run once per weight load, it gives the bf16
   * decoding programs their weights without a convert in every step.
   */
  public static Program castWeights(ModelConfig c, DType to) {
    GraphBuilder g = new GraphBuilder("cast_weights" + suffix(to));
    ModelWeights w = ModelWeights.declare(g, c, DType.F32);
    return g.build(w.castTo(g, to).all());
  }
}
