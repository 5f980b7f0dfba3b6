package dev.javelin.backend.model;

import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import java.util.List;

/**
 * The feed-forward part of a block: the gated MLP of dense models, or a Mixture-of-Experts layer
 * ({@link MoeFeedForward}). A family says which each block has ({@link Architecture#feedForward}).
 */
public sealed interface FeedForward permits FeedForward.GatedMlp, MoeFeedForward {

  /** Its tensors, named relative to {@code model.layers.{i}.}. */
  List<Architecture.LayerTensor> tensors(ModelConfig c);

  /**
   * The feed-forward of block {@code layer} on x (B, T, D), giving (B, T, D). A routed layer adds
   * its router logits (B·T, E) to {@code routerLogits}.
   */
  Node apply(GraphBuilder g, ModelWeights w, int layer, Node x, List<Node> routerLogits);

  /**
   * {@code down(act(gate(x)) · up(x))}: SwiGLU (act = SiLU) or GeGLU (act = GELU, tanh
   * approximation).
   */
  enum GatedMlp implements FeedForward {
    SWIGLU,
    GEGLU;

    @Override
    public List<Architecture.LayerTensor> tensors(ModelConfig c) {
      return BlockTensors.gatedMlp(c);
    }

    @Override
    public Node apply(GraphBuilder g, ModelWeights w, int i, Node x, List<Node> routerLogits) {
      Node gate = w.linear(g, i, BlockTensors.GATE_PROJ, x);
      Node up = w.linear(g, i, BlockTensors.UP_PROJ, x);
      Node act = this == SWIGLU ? NeuralOps.silu(g, gate) : NeuralOps.geluTanh(g, gate);
      return w.linear(g, i, BlockTensors.DOWN_PROJ, g.mul(act, up));
    }
  }
}
