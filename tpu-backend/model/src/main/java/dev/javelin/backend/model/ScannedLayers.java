package dev.javelin.backend.model;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op.Direction;
import dev.javelin.backend.graph.Scan;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The decoder's blocks as one {@link Scan} over the per-layer weights, stacked (L, ...) inside the
 * program from the per-layer parameters (so checkpoints, optimizer state and every other program
 * keep their per-layer names). The carry is the hidden state (B, T, D); the rotary tables and the
 * attention biases are invariants. Stacking holds one more copy of the layer weights (in the
 * compute type) while the program runs, and the gradient one stacked copy of the layer gradients
 * before they are sliced back per layer.
 *
 * <p>Blocks whose attention differs by layer (Gemma 3: sliding-window blocks with the local rotary
 * base, global ones with the scaled global base) share one loop body: each distinct {@link
 * Architecture.LayerAttention} is a kind, the body holds every kind's {@link CausalAttention#kind}
 * value (its bias, or its window for blockwise attention) and rotary columns as invariants, and a
 * stacked per-layer kind number selects them ({@code select}, so every block sees exactly the
 * values its unrolled form sees).
 *
 * <p>Mixture-of-Experts blocks also return their router logits, which the loop stacks (L, B·T, E)
 * as a second output for the load-balancing loss, gradients flowing back into it. The loss is not a
 * sum of per-layer terms (each expert's picks summed over all layers times its probabilities summed
 * over all layers), so no loss could be carried; per-layer sums of picks and probabilities could
 * be, in less memory, but need the token mask inside the loop, while the stacked logits leave the
 * loss as the unrolled blocks compute it, from the same logits.
 */
final class ScannedLayers {
  private ScannedLayers() {}

  /**
   * Whether the blocks can run as one loop: every block's feed-forward the same (a dense gated MLP
   * or one Mixture-of-Experts layout; the attention may differ by layer) and no adapters.
   */
  static boolean supports(ModelConfig c, ModelWeights w) {
    Architecture a = c.architecture();
    for (int i = 0; i < c.layers(); i++) {
      if (!a.feedForward(i).equals(a.feedForward(0))) {
        return false;
      }
    }
    return w.adapterParameters().isEmpty();
  }

  static Node hidden(
      GraphBuilder g,
      DecoderModel m,
      ModelWeights w,
      Node ids,
      Node cos,
      Node sin,
      CausalAttention attention) {
    ModelConfig c = m.config();
    List<String> suffixes = suffixes(w);
    List<Node> stacks = stacked(g, c, w, suffixes);
    List<Integer> firsts = kindFirstLayers(c);
    List<Node> invariants = new ArrayList<>();
    for (int first : firsts) {
      int rope = c.architecture().attention(first).rope();
      invariants.add(m.ropeColumns(g, cos, rope));
      invariants.add(m.ropeColumns(g, sin, rope));
      invariants.add(attention.kind(first));
    }
    List<Node> shared = attention.shared();
    if (firsts.size() > 1) {
      stacks.add(kindNumbers(g, c, firsts));
    }
    Node h0 = g.batchMajor(m.embed(g, w, ids));
    List<Node> all = new ArrayList<>(invariants);
    all.addAll(shared);
    List<Node> out =
        Scan.withOutputs(
            g,
            "layers",
            h0,
            stacks,
            all,
            (b, carry, slices, inv) -> {
              Map<String, Node> layer = new LinkedHashMap<>();
              for (int k = 0; k < suffixes.size(); k++) {
                layer.put(WeightSpec.layer(0, suffixes.get(k)), slices.get(k));
              }
              List<Node> kinds = inv.subList(0, invariants.size());
              List<Node> kind =
                  firsts.size() == 1 ? kinds : selectKind(b, kinds, slices.get(suffixes.size()));
              List<Node> sharedIn = inv.subList(invariants.size(), inv.size());
              ModelWeights lw = ModelWeights.of(layer);
              DecoderModel.Attention layout = attention.layout(m, sharedIn, layer0 -> kind.get(2));
              List<Node> next = new ArrayList<>(); // the carry, then a routed block's logits
              next.add(null);
              // (B, T, D) in and out split over the batch: marking the input also pins its
              // cotangent, the backward loop's carry
              Node in = b.batchMajor(carry);
              Node h = m.layerRotatedBy(b, lw, 0, in, kind.get(0), kind.get(1), layout, next);
              next.set(0, b.batchMajor(h));
              return next;
            });
    if (out.size() > 1) {
      m.scannedRouterLogits(out.get(1));
    }
    return m.finalNorm(g, w, g.batchMajor(out.get(0)));
  }

  /** Each per-layer weight named by {@code suffixes}, its layers stacked (L, ...). */
  private static List<Node> stacked(
      GraphBuilder g, ModelConfig c, ModelWeights w, List<String> suffixes) {
    List<Node> stacks = new ArrayList<>();
    for (String suffix : suffixes) {
      List<Node> rows = new ArrayList<>();
      for (int i = 0; i < c.layers(); i++) {
        Node x = w.layer(i, suffix);
        rows.add(g.reshape(x, withLayers(1, x.shape())));
      }
      stacks.add(rows.size() == 1 ? rows.get(0) : g.concatenate(0, rows));
    }
    return stacks;
  }

  /** The first block of each distinct attention kind, in layer order. */
  private static List<Integer> kindFirstLayers(ModelConfig c) {
    Map<Architecture.LayerAttention, Integer> first = new LinkedHashMap<>();
    for (int i = 0; i < c.layers(); i++) {
      first.putIfAbsent(c.architecture().attention(i), i);
    }
    return List.copyOf(first.values());
  }

  /** Each block's kind (its index in {@code firsts}), stacked (L) f32 for the loop to slice. */
  private static Node kindNumbers(GraphBuilder g, ModelConfig c, List<Integer> firsts) {
    List<Architecture.LayerAttention> kinds = new ArrayList<>();
    firsts.forEach(i -> kinds.add(c.architecture().attention(i)));
    List<Node> rows = new ArrayList<>();
    for (int i = 0; i < c.layers(); i++) {
      rows.add(g.constant(kinds.indexOf(c.architecture().attention(i)), DType.F32, Shape.of(1)));
    }
    return g.concatenate(0, rows);
  }

  /**
   * The (cos, sin, bias) of this iteration's kind among the invariants' triples, picked by its kind
   * number (a scalar slice).
   */
  private static List<Node> selectKind(GraphBuilder b, List<Node> inv, Node number) {
    List<Node> out = new ArrayList<>(inv.subList(0, 3));
    for (int k = 1; k < inv.size() / 3; k++) {
      Node is = b.compare(number, b.constant(k, DType.F32, Shape.of()), Direction.EQ);
      for (int j = 0; j < 3; j++) {
        Node candidate = inv.get(3 * k + j);
        out.set(j, b.select(b.broadcastTo(is, candidate.shape()), candidate, out.get(j)));
      }
    }
    return out;
  }

  /** The per-layer weight suffixes, as layer 0 names them. */
  private static List<String> suffixes(ModelWeights w) {
    String prefix = WeightSpec.layer(0, "");
    List<String> out = new ArrayList<>();
    for (String name : w.names()) {
      if (name.startsWith(prefix)) {
        out.add(name.substring(prefix.length()));
      }
    }
    return out;
  }

  private static Shape withLayers(int layers, Shape s) {
    int[] dims = new int[s.rank() + 1];
    dims[0] = layers;
    for (int i = 0; i < s.rank(); i++) {
      dims[i + 1] = s.dim(i);
    }
    return Shape.of(dims);
  }
}
