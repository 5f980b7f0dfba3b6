package dev.javelin.backend.model;

import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Scan;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The decoder's blocks as one {@link Scan} over the per-layer weights, stacked (L, ...) inside the
 * program from the per-layer parameters (so checkpoints, optimizer state and every other program
 * keep their per-layer names). The carry is the hidden state (B, T, D); the rotary tables and the
 * attention bias are invariants. Stacking holds one more copy of the layer weights (in the compute
 * type) while the program runs, and the gradient one stacked copy of the layer gradients before
 * they are sliced back per layer.
 */
final class ScannedLayers {
  private ScannedLayers() {}

  /**
   * Whether the blocks can run as one loop: every block alike (dense gated MLP, the attention
   * window and rotary table of block 0) and no adapters.
   */
  static boolean supports(ModelConfig c, ModelWeights w) {
    Architecture a = c.architecture();
    for (int i = 0; i < c.layers(); i++) {
      if (!(a.feedForward(i) instanceof FeedForward.GatedMlp)
          || !a.attention(i).equals(a.attention(0))) {
        return false;
      }
    }
    return w.adapterParameters().isEmpty();
  }

  static Node hidden(
      GraphBuilder g, DecoderModel m, ModelWeights w, Node ids, Node cos, Node sin, Node bias) {
    ModelConfig c = m.config();
    List<String> suffixes = suffixes(w);
    List<Node> stacks = new ArrayList<>();
    for (String suffix : suffixes) {
      List<Node> rows = new ArrayList<>();
      for (int i = 0; i < c.layers(); i++) {
        Node x = w.layer(i, suffix);
        rows.add(g.reshape(x, withLayers(1, x.shape())));
      }
      stacks.add(rows.size() == 1 ? rows.get(0) : g.concatenate(0, rows));
    }
    Node h0 = m.embed(g, w, ids);
    Node h =
        Scan.apply(
            g,
            "layers",
            h0,
            stacks,
            List.of(cos, sin, bias),
            (b, carry, slices, inv) -> {
              Map<String, Node> layer = new LinkedHashMap<>();
              for (int k = 0; k < suffixes.size(); k++) {
                layer.put(WeightSpec.layer(0, suffixes.get(k)), slices.get(k));
              }
              ModelWeights lw = ModelWeights.of(layer);
              DecoderModel.Attention dense = m.dense(layer0 -> inv.get(2), KvPolicy.SELF);
              return m.layer(b, lw, 0, carry, inv.get(0), inv.get(1), dense);
            });
    return m.finalNorm(g, w, h);
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
