package dev.javelin.backend.model;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op.Direction;
import java.util.Arrays;

/**
 * Neural-network building blocks written with the primitive ops of {@link GraphBuilder}, so that
 * autodiff and lowering see only primitives. All functions act on the last axis.
 */
public final class NeuralOps {
  private NeuralOps() {}

  /**
   * The type a value of type {@code t} is reduced and accumulated in: f32 for bf16 (mixed
   * precision: norms, softmax and matrix-product sums in f32), else {@code t} itself.
   */
  public static DType wide(DType t) {
    return t == DType.BF16 ? DType.F32 : t;
  }

  /**
   * RMSNorm: {@code y = x · rsqrt(mean(x²) + ε) · w}. x (..., D), w (D). A bf16 x is normalised in
   * f32 and the result rounded back to bf16.
   */
  public static Node rmsNorm(GraphBuilder g, Node input, Node weight, double eps) {
    return rmsNorm(g, input, weight, eps, 0);
  }

  /** RMSNorm with the scale {@code w + offset} (Gemma's {@code (1 + w)}: offset 1). */
  public static Node rmsNorm(GraphBuilder g, Node input, Node weight, double eps, double offset) {
    DType io = input.dtype();
    Node x = g.convert(input, wide(io));
    Node stored = g.convert(weight, wide(io));
    Node w = offset == 0 ? stored : g.add(stored, g.full(stored, offset));
    Shape s = x.shape();
    int last = s.rank() - 1;
    Node sumSq = g.reduceSum(g.mul(x, x), last); // (...)
    Node ms = g.mul(sumSq, g.full(sumSq, 1.0 / s.dim(last)));
    Node inv = g.rsqrt(g.add(ms, g.full(ms, eps))); // (...)
    Node scaled = g.mul(x, broadcastKeep(g, inv, s));
    return g.convert(g.mul(scaled, g.broadcastTo(w, s)), io);
  }

  /**
   * {@code x W^T} with the products summed in {@link #wide} precision and the result in {@code
   * result} (x's type, or the wide type to keep it, as the LM head's logits are).
   */
  public static Node matmulTransposed(GraphBuilder g, Node x, Node w, DType result) {
    int r = x.shape().rank();
    int[] none = new int[0];
    Node y = g.dotGeneral(x, w, none, none, new int[] {r - 1}, new int[] {1}, wide(x.dtype()));
    return g.convert(y, result);
  }

  /** {@code x W^T (+ b)} with an {@code nn.Linear} weight W (out, in). x (..., in). */
  public static Node linear(GraphBuilder g, Node x, Node w, Node bias) {
    Node y = matmulTransposed(g, x, w, x.dtype());
    return bias == null ? y : g.add(y, g.broadcastTo(bias, y.shape()));
  }

  /** SiLU: {@code x · σ(x)}. */
  public static Node silu(GraphBuilder g, Node x) {
    return g.mul(x, g.logistic(x));
  }

  /** GELU, tanh approximation: {@code x/2 · (1 + tanh(sqrt(2/π) · (x + 0.044715 x³)))}. */
  public static Node geluTanh(GraphBuilder g, Node x) {
    Node cube = g.mul(g.mul(x, x), x);
    Node inner = g.add(x, g.mul(cube, g.full(x, 0.044715)));
    Node t = g.tanh(g.mul(inner, g.full(x, Math.sqrt(2 / Math.PI))));
    return g.mul(g.mul(x, g.full(x, 0.5)), g.add(t, g.full(x, 1)));
  }

  /** Soft-capping: {@code cap · tanh(x / cap)}, x itself when cap is 0. */
  public static Node softcap(GraphBuilder g, Node x, double cap) {
    return cap == 0 ? x : g.mul(g.tanh(g.mul(x, g.full(x, 1 / cap))), g.full(x, cap));
  }

  /** Softmax over the last axis, max-shifted for stability. */
  public static Node softmax(GraphBuilder g, Node x) {
    int last = x.shape().rank() - 1;
    Node m = broadcastKeep(g, g.reduceMax(x, last), x.shape());
    Node e = g.exp(g.sub(x, m));
    return g.div(e, broadcastKeep(g, g.reduceSum(e, last), x.shape()));
  }

  /** {@code x - logsumexp(x)} over the last axis. */
  public static Node logSoftmax(GraphBuilder g, Node x) {
    int last = x.shape().rank() - 1;
    Node m = broadcastKeep(g, g.reduceMax(x, last), x.shape());
    Node shifted = g.sub(x, m);
    Node lse = g.log(g.reduceSum(g.exp(shifted), last));
    return g.sub(shifted, broadcastKeep(g, lse, x.shape()));
  }

  /** Broadcasts a tensor that lost the last axis of {@code full} back to {@code full}. */
  public static Node broadcastKeep(GraphBuilder g, Node reduced, Shape full) {
    int[] dims = new int[reduced.shape().rank()];
    for (int i = 0; i < dims.length; i++) {
      dims[i] = i;
    }
    return g.broadcastInDim(reduced, full, dims);
  }

  /** One-hot (..., V) of integer ids (...), in floating type {@code dtype}. */
  public static Node oneHot(GraphBuilder g, Node ids, int depth, DType dtype) {
    int[] dims = ids.shape().dims();
    int[] out = Arrays.copyOf(dims, dims.length + 1);
    out[dims.length] = depth;
    Shape s = Shape.of(out);
    Node iota = g.iota(DType.I32, s, dims.length);
    Node hit = g.compare(iota, broadcastKeep(g, ids, s), Direction.EQ);
    return g.select(hit, g.constant(1, dtype, s), g.constant(0, dtype, s));
  }
}
