package dev.javelin.backend.model;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op.Direction;

/** Additive attention biases (0 = attend, {@link DecoderModel#MASKED} = masked) built in-graph. */
public final class AttentionMasks {
  private AttentionMasks() {}

  /**
   * Causal + padding bias (B, T, T): query t may see key s when {@code s <= t} and key s is a real
   * token. attentionMask (B, T) f32, 1 for tokens, 0 for padding.
   */
  public static Node causal(GraphBuilder g, Node attentionMask) {
    int b = attentionMask.shape().dim(0);
    int t = attentionMask.shape().dim(1);
    Shape tt = Shape.of(t, t);
    Node row = g.iota(DType.I32, tt, 0);
    Node col = g.iota(DType.I32, tt, 1);
    Node zero = g.constant(0, attentionMask.dtype(), tt);
    Node masked = g.constant(DecoderModel.MASKED, attentionMask.dtype(), tt);
    Node causal = g.select(g.compare(col, row, Direction.LE), zero, masked); // (T, T)
    Shape btt = Shape.of(b, t, t);
    return g.add(g.broadcastInDim(causal, btt, 1, 2), keys(g, attentionMask, btt));
  }

  /** Key-only bias (B, 1, S) for decoding over a cache. keyMask (B, S) f32. */
  public static Node decode(GraphBuilder g, Node keyMask) {
    int b = keyMask.shape().dim(0);
    int s = keyMask.shape().dim(1);
    return keys(g, keyMask, Shape.of(b, 1, s));
  }

  /** {@code (mask - 1) · 1e9} broadcast over the query axis of {@code out} (B, T, S). */
  public static Node keys(GraphBuilder g, Node mask, Shape out) {
    Node bias = g.mul(g.sub(mask, g.full(mask, 1)), g.full(mask, -DecoderModel.MASKED));
    return g.broadcastInDim(bias, out, 0, 2);
  }
}
