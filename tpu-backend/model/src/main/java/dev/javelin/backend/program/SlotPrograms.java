package dev.javelin.backend.program;

import dev.javelin.backend.DType;
import dev.javelin.backend.Donation;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op.Direction;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.model.AttentionMasks;
import dev.javelin.backend.model.DecoderModel;
import dev.javelin.backend.model.KvPolicy;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.model.ModelConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decode programs for continuous batching: every row of the batch is an independent slot with its
 * own cache write position, so a finished row can take a new request while the others keep going. A
 * row's cache index equals its rotary position (each occupant starts at slot 0), and the key mask
 * is derived in-graph as {@code s <= position}, so stale entries left by a previous occupant are
 * invisible without clearing the cache.
 */
public final class SlotPrograms {
  private SlotPrograms() {}

  /**
   * One token per row: ids (B, 1) at positions (B, 1), written into each row's cache at index
   * {@code position} when the row's attention_mask (B, 1) is 1 (rows with 0 are idle and leave
   * their cache untouched). Inputs after the tokens: per layer cache.k.i and cache.v.i (B, Hkv, S,
   * Dh). Outputs: [logits (B, V), then per layer the updated key and value cache].
   */
  public static Program decode(ModelConfig c, int b, int s, int p) {
    return decode(c, b, s, p, DType.F32, LoraConfig.NONE);
  }

  /**
   * As above computing in {@code compute} through the adapters of {@code lora}: with {@link
   * DType#BF16} the weights are the bf16 copy ({@link ModelPrograms#castWeights}) and the caches
   * are bf16 (half the bytes); see {@link ModelPrograms#prefill(ModelConfig, int, int, int, int,
   * DType, LoraConfig)} for what stays f32.
   */
  public static Program decode(ModelConfig c, int b, int s, int p, DType compute, LoraConfig lora) {
    GraphBuilder g =
        new GraphBuilder(
            "slot_decode_b"
                + b
                + "_s"
                + s
                + ModelPrograms.loraSuffix(lora)
                + ModelPrograms.suffix(compute));
    ModelPrograms.Inputs in = ModelPrograms.declareDecoding(g, c, b, 1, p, compute, lora);
    Shape cacheShape = Shape.of(b, c.kvHeads(), s, c.headDim());
    List<Node> cacheIn = new ArrayList<>();
    for (int i = 0; i < c.layers(); i++) {
      cacheIn.add(g.parameter(ModelPrograms.cacheKey(i), compute, cacheShape));
      cacheIn.add(g.parameter(ModelPrograms.cacheValue(i), compute, cacheShape));
    }
    Shape bs = Shape.of(b, s);
    Node slots = g.iota(DType.I32, bs, 1); // (B, S)
    Node pos = g.broadcastInDim(g.reshape(in.positions(), b), bs, 0); // (B, S)
    Node one = g.constant(1, DType.F32, bs);
    Node zero = g.constant(0, DType.F32, bs);
    Node visible = g.select(g.compare(slots, pos, Direction.LE), one, zero); // (B, S)
    // Each active row writes its token's keys and values at its own position; an idle row's index
    // is S, outside the cache, so it writes nothing. One scatter per cache touches B slots where a
    // full-cache select read and rewrote all B·S of them (as much as the attention itself).
    Node active =
        g.compare(g.reshape(in.mask(), b), g.constant(0.5, DType.F32, Shape.of(b)), Direction.GT);
    Node at =
        g.select(
            active, g.reshape(in.positions(), b), g.constant(s, DType.I32, Shape.of(b))); // (B)
    List<Node> cacheOut = new ArrayList<>();
    KvPolicy update =
        (layer, k, v) -> {
          Node kc = g.updateSlots(cacheIn.get(2 * layer), k, at, 2);
          Node vc = g.updateSlots(cacheIn.get(2 * layer + 1), v, at, 2);
          cacheOut.add(kc);
          cacheOut.add(vc);
          return new KvPolicy.Kv(kc, vc);
        };
    DecoderModel m = new DecoderModel(c);
    Node h =
        m.hidden(
            g,
            in.weights(),
            in.ids(),
            in.cos(),
            in.sin(),
            m.dense(
                AttentionMasks.perLayer(
                    g,
                    c,
                    AttentionMasks.decode(g, visible),
                    g.reshape(in.positions(), b, 1),
                    slots),
                update));
    List<Node> outs = new ArrayList<>();
    outs.add(m.logits(g, in.weights(), g.reshape(h, b, c.hidden())));
    outs.addAll(cacheOut);
    return g.build(outs);
  }

  /**
   * Donates each layer's key and value cache of a {@link #decode} program to its update, so a step
   * writes the new token into the cache in place instead of copying the cache.
   */
  public static Donation decodeInPlace(Program decode, int layers) {
    Map<String, Integer> byName = new LinkedHashMap<>();
    for (int i = 0; i < layers; i++) {
      byName.put(ModelPrograms.cacheKey(i), 1 + 2 * i);
      byName.put(ModelPrograms.cacheValue(i), 2 + 2 * i);
    }
    return Donation.byName(decode, byName);
  }

  /** Name of the row-index input of {@link #gatherRows}. */
  public static final String ROWS = "rows";

  /**
   * Moves cache rows into a batch of {@code to} rows: output row i is input row {@code rows[i]}
   * (i32 (to)). Inputs: rows, then per layer cache.k.i and cache.v.i (from, Hkv, S, Dh). Outputs:
   * per layer the gathered key and value cache (to, Hkv, S, Dh). Used to shrink the batch when few
   * requests remain.
   */
  public static Program gatherRows(ModelConfig c, int from, int to, int s) {
    return gatherRows(c, from, to, s, DType.F32);
  }

  /** As above for caches of {@code dtype}. */
  public static Program gatherRows(ModelConfig c, int from, int to, int s, DType dtype) {
    GraphBuilder g =
        new GraphBuilder(
            "slot_gather_b" + from + "_to" + to + "_s" + s + ModelPrograms.suffix(dtype));
    Node rows = g.parameter(ROWS, DType.I32, Shape.of(to));
    Shape in = Shape.of(from, c.kvHeads(), s, c.headDim());
    int rowSize = c.kvHeads() * s * c.headDim();
    List<Node> outs = new ArrayList<>();
    for (int i = 0; i < c.layers(); i++) {
      for (String name : List.of(ModelPrograms.cacheKey(i), ModelPrograms.cacheValue(i))) {
        Node table = g.reshape(g.parameter(name, dtype, in), from, rowSize);
        outs.add(g.reshape(g.gather(table, rows), to, c.kvHeads(), s, c.headDim()));
      }
    }
    return g.build(outs);
  }

  /** Name of the fresh key cache of layer i in {@link #mergeRows}. */
  public static String freshKey(int layer) {
    return "fresh.k." + layer;
  }

  /** Name of the fresh value cache of layer i in {@link #mergeRows}. */
  public static String freshValue(int layer) {
    return "fresh.v." + layer;
  }

  /**
   * Splices freshly prefilled rows into a cache: output row r is cache row {@code rows[r]} when
   * that is below {@code b}, else fresh row {@code rows[r] - b}. Inputs: rows (i32 (b)), per layer
   * cache.k.i / cache.v.i (b, Hkv, S, Dh), then per layer fresh.k.i / fresh.v.i (n, Hkv, S, Dh).
   * Outputs: per layer the merged key and value cache (b, Hkv, S, Dh).
   */
  public static Program mergeRows(ModelConfig c, int b, int n, int s) {
    return mergeRows(c, b, n, s, DType.F32);
  }

  /** As above for caches of {@code dtype}. */
  public static Program mergeRows(ModelConfig c, int b, int n, int s, DType dtype) {
    GraphBuilder g =
        new GraphBuilder("slot_merge_b" + b + "_n" + n + "_s" + s + ModelPrograms.suffix(dtype));
    Node rows = g.parameter(ROWS, DType.I32, Shape.of(b));
    int rowSize = c.kvHeads() * s * c.headDim();
    List<Node> old = new ArrayList<>();
    for (int i = 0; i < c.layers(); i++) {
      old.add(g.parameter(ModelPrograms.cacheKey(i), dtype, cacheShape(c, b, s)));
      old.add(g.parameter(ModelPrograms.cacheValue(i), dtype, cacheShape(c, b, s)));
    }
    List<Node> outs = new ArrayList<>();
    for (int i = 0; i < c.layers(); i++) {
      Node freshK = g.parameter(freshKey(i), dtype, cacheShape(c, n, s));
      Node freshV = g.parameter(freshValue(i), dtype, cacheShape(c, n, s));
      for (int kv = 0; kv < 2; kv++) {
        Node table =
            g.concatenate(
                0,
                List.of(
                    g.reshape(old.get(2 * i + kv), b, rowSize),
                    g.reshape(kv == 0 ? freshK : freshV, n, rowSize))); // (b + n, rowSize)
        outs.add(g.reshape(g.gather(table, rows), b, c.kvHeads(), s, c.headDim()));
      }
    }
    return g.build(outs);
  }

  private static Shape cacheShape(ModelConfig c, int b, int s) {
    return Shape.of(b, c.kvHeads(), s, c.headDim());
  }
}
