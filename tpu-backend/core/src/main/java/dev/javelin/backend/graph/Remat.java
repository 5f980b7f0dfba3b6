package dev.javelin.backend.graph;

/**
 * What the backward pass keeps from the forward pass (a rematerialisation policy, as in {@code
 * jax.checkpoint}).
 */
public enum Remat {
  /** Backward nodes read any forward value they need: fastest, most memory. */
  NONE,
  /**
   * Elementwise forward values (math, compare, select, convert, broadcast, reshape, constants) are
   * recomputed in the backward pass from the saved outputs of the other ops (matrix products,
   * reductions, gathers, layout copies) and the parameters, like JAX's {@code dots_saveable}. Fused
   * devices then read one saved tensor instead of several, e.g. the logits instead of logits,
   * shifted logits, their exponentials and the probabilities.
   */
  ELEMENTWISE,
  /**
   * Per-segment recomputation ({@link GraphBuilder#beginSegment}: each decoder block, each chunk of
   * the LM head) on top of {@link #ELEMENTWISE}: only a segment's outputs are kept (one (B, T, D)
   * hidden state per block), and the backward pass reruns the segment's forward, matrix products
   * included, just before its own backward. The gradient checkpointing of Hugging Face models
   * ({@code enable_gradient_checkpointing}): activation memory drops from every layer's
   * intermediates to one layer's, for about one more forward pass of compute.
   */
  BLOCKS;

  boolean recomputes(Node forward) {
    if (this == NONE) {
      return false;
    }
    if (this == BLOCKS && forward.kept()) {
      return false;
    }
    if (this == BLOCKS && forward.segment() >= 0 && !(forward.op() instanceof Op.Parameter)) {
      return true;
    }
    Op op = forward.op();
    return op instanceof Op.Unary
        || op instanceof Op.Binary
        || op instanceof Op.Select
        || op instanceof Op.Compare
        || op instanceof Op.Convert
        || op instanceof Op.BroadcastInDim
        || op instanceof Op.Reshape
        || op instanceof Op.Constant
        || op instanceof Op.Iota;
  }
}
