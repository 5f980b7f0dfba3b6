package dev.javelin.backend.model;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The weight parameters of one program, by Hugging Face name, in {@link WeightSpec} order, and the
 * LoRA adapters' A and B (after the weights) when the program carries them.
 */
public final class ModelWeights {
  private final Map<String, Node> byName;
  private final LoraConfig lora;
  private final Map<String, Ab> adapters; // by base weight name
  private final Map<String, Node> adapterParams = new LinkedHashMap<>();

  /** One adapter's A (r, in) and B (out, r) nodes and the name of its dropout mask input. */
  private record Ab(Node a, Node b, String mask) {}

  private ModelWeights(Map<String, Node> byName, LoraConfig lora) {
    this.byName = byName;
    this.lora = lora;
    this.adapters = new LinkedHashMap<>();
  }

  /** Weights already in a graph, by HF name, without adapters (one layer of a scanned model). */
  static ModelWeights of(Map<String, Node> byName) {
    return new ModelWeights(new LinkedHashMap<>(byName), LoraConfig.NONE);
  }

  /** Declares every weight of {@code c} as a program parameter named by its HF name. */
  public static ModelWeights declare(GraphBuilder g, ModelConfig c, DType dtype) {
    return declare(g, c, dtype, LoraConfig.NONE);
  }

  /** As above, then A and B of every adapter {@code lora} puts on {@code c}. */
  public static ModelWeights declare(GraphBuilder g, ModelConfig c, DType dtype, LoraConfig lora) {
    return declare(g, c, dtype, dtype, lora);
  }

  /**
   * As above with the adapters' parameters of {@code adapterType}: bf16 decoding takes a bf16 copy
   * of the base weights but the f32 adapters the sampler holds ({@link #castTo} converts them).
   */
  public static ModelWeights declare(
      GraphBuilder g, ModelConfig c, DType dtype, DType adapterType, LoraConfig lora) {
    Map<String, Node> m = new LinkedHashMap<>();
    for (WeightSpec s : WeightSpec.layout(c)) {
      m.put(s.name(), g.parameter(s.name(), dtype, s.shape()));
    }
    ModelWeights w = new ModelWeights(m, lora);
    for (LoraConfig.Adapter a : lora.adapters(c)) {
      Node na = g.parameter(a.a(), adapterType, Shape.of(a.rank(), a.in()));
      Node nb = g.parameter(a.b(), adapterType, Shape.of(a.out(), a.rank()));
      w.adapters.put(a.base(), new Ab(na, nb, a.dropoutMask()));
      w.adapterParams.put(a.a(), na);
      w.adapterParams.put(a.b(), nb);
    }
    return w;
  }

  /**
   * The same weights converted to {@code compute} inside the program (this, when they already are
   * of that type): the mixed-precision compute copy of f32 master weights, made afresh from them
   * every step. Gradients flow back through the converts to the master parameters.
   */
  public ModelWeights castTo(GraphBuilder g, DType compute) {
    if (byName.values().stream().allMatch(n -> n.dtype() == compute)
        && adapterParams.values().stream().allMatch(n -> n.dtype() == compute)) {
      return this;
    }
    Map<String, Node> m = new LinkedHashMap<>();
    byName.forEach((name, n) -> m.put(name, convert(g, n, compute)));
    ModelWeights w = new ModelWeights(m, lora);
    adapters.forEach(
        (base, ab) ->
            w.adapters.put(
                base, new Ab(convert(g, ab.a(), compute), convert(g, ab.b(), compute), ab.mask())));
    w.adapterParams.putAll(adapterParams); // the trainable parameters stay the masters
    return w;
  }

  private static Node convert(GraphBuilder g, Node n, DType to) {
    return n.dtype() == to ? n : g.convert(n, to);
  }

  public Node get(String name) {
    Node n = byName.get(name);
    if (n == null) {
      throw new IllegalArgumentException("model has no weight '" + name + "'");
    }
    return n;
  }

  /** A per-layer weight, or null when absent (biases of a model without them). */
  public Node layer(int i, String suffix) {
    return byName.get(WeightSpec.layer(i, suffix));
  }

  /**
   * The linear layer {@code module} (e.g. {@code self_attn.q_proj}) of block i on x (..., in):
   * {@code x W^T (+ b)}, plus {@code scale · (x A^T) B^T} when it carries an adapter. Under {@link
   * LoraConfig#drops dropout} the adapter sees {@code mask ⊙ x} instead, the mask (shaped like x,
   * f32) a program input named {@link LoraConfig.Adapter#dropoutMask}, so the backward pass and any
   * recomputation read the same mask.
   */
  public Node linear(GraphBuilder g, int i, String module, Node x) {
    Node w = layer(i, module + ".weight");
    Node y = NeuralOps.linear(g, x, w, layer(i, module + ".bias"));
    Ab ab = adapters.get(WeightSpec.layer(i, module + ".weight"));
    if (ab == null) {
      return y;
    }
    Node in = x;
    if (lora.drops()) {
      Node mask = g.parameter(ab.mask(), DType.F32, x.shape());
      in = g.mul(x, x.dtype() == DType.F32 ? mask : g.convert(mask, x.dtype()));
    }
    Node low = g.matmulTransposed(g.matmulTransposed(in, ab.a()), ab.b()); // (..., r) -> (..., out)
    return g.add(y, g.mul(low, g.full(low, lora.scale())));
  }

  /** The adapters' A and B parameters by name, adapter by adapter (empty without LoRA). */
  public Map<String, Node> adapterParameters() {
    return Collections.unmodifiableMap(adapterParams);
  }

  /** All weight nodes in layout order (adapters excluded). */
  public List<Node> all() {
    return List.copyOf(byName.values());
  }

  public List<String> names() {
    return List.copyOf(byName.keySet());
  }
}
