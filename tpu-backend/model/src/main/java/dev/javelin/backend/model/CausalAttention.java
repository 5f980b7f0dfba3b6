package dev.javelin.backend.model;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * How the blocks of a log-prob or train program attend: causally within each row, with each block's
 * sliding window, either through a dense (B, T, T) bias per attention kind (the default) or over
 * blocks of keys with an online softmax ({@link BlockwiseAttention}), whose memory is linear in T.
 * Chosen with the JVM property {@value #PROPERTY}: a key-block size turns the blockwise form on.
 *
 * <p>A layer loop ({@link ScannedLayers}) passes {@link #shared} into its body as invariants, with
 * one {@link #kind} value per attention kind, and rebuilds the layout inside the body with {@link
 * #layout(DecoderModel, List, IntFunction)}.
 */
public final class CausalAttention {
  public static final String PROPERTY = "javelin.attention.block";

  private final Node mask;
  private final Node positions;
  private final int block;
  private final IntFunction<Node> kinds;

  private CausalAttention(Node mask, Node positions, int block, IntFunction<Node> kinds) {
    this.mask = mask;
    this.positions = positions;
    this.block = block;
    this.kinds = kinds;
  }

  /**
   * The attention of a batch whose attention mask (B, T) is 1 on tokens and positions (B, T) i32;
   * {@code block} keys per block, 0 for the dense form. Every kind's value is built here, before
   * the blocks, so none is made inside a block's recomputation segment.
   */
  public static CausalAttention of(
      GraphBuilder g, ModelConfig c, Node mask, Node positions, int block) {
    if (block < 0) {
      throw new IllegalArgumentException("attention key block " + block + " is negative");
    }
    if (block == 0) {
      Node bias = AttentionMasks.causal(g, mask);
      return new CausalAttention(
          mask, positions, 0, AttentionMasks.perLayer(g, c, bias, positions, positions));
    }
    List<Node> windows = new ArrayList<>();
    for (int i = 0; i < c.layers(); i++) {
      int w = c.architecture().attention(i).window();
      windows.add(g.constant(w > 0 ? w : Integer.MAX_VALUE, DType.I32, Shape.scalar()));
    }
    return new CausalAttention(mask, positions, block, windows::get);
  }

  /** The key-block size {@value #PROPERTY} names; 0 (dense attention) when unset. */
  public static int configuredBlock() {
    String v = System.getProperty(PROPERTY, "0").trim();
    try {
      int block = Integer.parseInt(v);
      if (block >= 0) {
        return block;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "-D" + PROPERTY + "=" + v + ": expected a key-block size (e.g. 512), or 0 for dense");
  }

  /** Keys per block, 0 for dense attention. */
  public int block() {
    return block;
  }

  /** Values every block reads, whatever its kind: the mask and positions (blockwise), or none. */
  public List<Node> shared() {
    return block == 0 ? List.of() : List.of(mask, positions);
  }

  /** Layer i's kind value: its bias (B, T, T) in the dense form, its window (i32) blockwise. */
  public Node kind(int layer) {
    return kinds.apply(layer);
  }

  /** The layout of unrolled blocks. */
  public DecoderModel.Attention layout(DecoderModel m) {
    return layout(m, shared(), kinds);
  }

  /**
   * The layout built from {@code shared} and per-layer {@code kind} values as seen in a loop body
   * (the body's parameters standing for {@link #shared} and {@link #kind}).
   */
  public DecoderModel.Attention layout(DecoderModel m, List<Node> shared, IntFunction<Node> kind) {
    if (block == 0) {
      return m.dense(kind, KvPolicy.SELF);
    }
    Node pos = shared.get(1);
    return m.blockwise(new BlockwiseAttention.Keys(shared.get(0), pos), pos, kind, block);
  }
}
