package dev.javelin.backend.model;

import dev.javelin.backend.batch.TokenStats;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;

/**
 * A scalar training loss over per-token log-probs and entropies, written into the train-step graph
 * (for example the GRPO clipped surrogate). It may declare its own inputs (advantages, masks, old
 * log-probs) with {@link GraphBuilder#parameter}; the caller passes them by those names.
 */
public interface TokenLoss {

  /** Identifies the loss variant in program-cache keys; equal names must build equal graphs. */
  String name();

  /**
   * @param stats logp and entropy, each (B, T-1), of {@code ids[:, 1:]}
   * @return an f32 scalar
   */
  Node build(GraphBuilder g, TokenStats stats);
}
