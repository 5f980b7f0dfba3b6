package dev.javelin.backend.model;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op.Direction;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntFunction;

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

  /**
   * Each block's bias: {@code bias} (B, T, S), narrowed to its sliding window in blocks that have
   * one ({@link Architecture#attention}). queryPos (B, T) and keyPos (B, S) are the i32 positions
   * of queries and keys. Every window's bias is built here, before the blocks, so none is made
   * inside a block's recomputation segment.
   */
  public static IntFunction<Node> perLayer(
      GraphBuilder g, ModelConfig c, Node bias, Node queryPos, Node keyPos) {
    Map<Integer, Node> byWindow = new HashMap<>();
    byWindow.put(0, bias);
    for (int i = 0; i < c.layers(); i++) {
      int w = c.architecture().attention(i).window();
      byWindow.computeIfAbsent(w, x -> window(g, bias, queryPos, keyPos, x));
    }
    return layer -> byWindow.get(c.architecture().attention(layer).window());
  }

  /**
   * {@code bias} (B, T, S) where the key is fewer than {@code window} positions back, else masked.
   */
  public static Node window(GraphBuilder g, Node bias, Node queryPos, Node keyPos, int window) {
    Shape s = bias.shape();
    Node back = g.sub(g.broadcastInDim(queryPos, s, 0, 1), g.broadcastInDim(keyPos, s, 0, 2));
    Node near = g.compare(back, g.constant(window, DType.I32, s), Direction.LT);
    return g.select(near, bias, g.constant(DecoderModel.MASKED, bias.dtype(), s));
  }
}
