package dev.javelin.backend.model;

import dev.javelin.backend.DType;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The weight parameters of one program, by Hugging Face name, in {@link WeightSpec} order. */
public final class ModelWeights {
  private final Map<String, Node> byName;

  private ModelWeights(Map<String, Node> byName) {
    this.byName = byName;
  }

  /** Declares every weight of {@code c} as a program parameter named by its HF name. */
  public static ModelWeights declare(GraphBuilder g, ModelConfig c, DType dtype) {
    Map<String, Node> m = new LinkedHashMap<>();
    for (WeightSpec s : WeightSpec.layout(c)) {
      m.put(s.name(), g.parameter(s.name(), dtype, s.shape()));
    }
    return new ModelWeights(m);
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

  /** All weight nodes in layout order. */
  public List<Node> all() {
    return List.copyOf(byName.values());
  }

  public List<String> names() {
    return List.copyOf(byName.keySet());
  }
}
