package dev.javelin.backend.optim;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op.Direction;
import java.util.ArrayList;
import java.util.List;

/**
 * The AdamW update written into a graph, shared by the standalone optimizer program and the fused
 * train step. Order of work: global gradient norm ‖g‖ = √Σ‖g_i‖²; skip the whole update (state and
 * weights unchanged) when ‖g‖ is not finite; clip {@code g ← g · min(1, c / (‖g‖ + 1e-6))} as
 * {@code torch.nn.utils.clip_grad_norm_} does; then AdamW per {@link AdamWConfig}.
 */
public final class AdamWGraph {
  /** Largest finite f32; a norm that is NaN or ±∞ fails {@code norm < MAX}. */
  private static final double F32_MAX = Float.MAX_VALUE;

  private AdamWGraph() {}

  /**
   * New weights, moments, the pre-clip gradient norm (scalar) and whether the update was applied
   * (f32 scalar, 1 or 0).
   */
  public record Update(
      List<Node> weights, List<Node> m, List<Node> v, Node gradNorm, Node applied) {}

  /**
   * @param lr η, f32 scalar node
   * @param step t, the 1-based number of this update (f32 scalar node), for bias correction
   */
  public static Update apply(
      GraphBuilder g,
      List<Node> weights,
      List<Node> grads,
      List<Node> m,
      List<Node> v,
      Node lr,
      Node step,
      AdamWConfig cfg) {
    int n = weights.size();
    if (grads.size() != n || m.size() != n || v.size() != n) {
      throw new IllegalArgumentException("weights, grads, m and v must have equal counts");
    }
    Node norm = g.sqrt(sumOfSquares(g, grads));
    Node ok = g.compare(norm, g.full(norm, F32_MAX), Direction.LT);
    Node scale = g.full(norm, 1);
    if (cfg.clips()) {
      Node ratio = g.div(g.full(norm, cfg.maxGradNorm()), g.add(norm, g.full(norm, 1e-6)));
      scale = g.min(g.full(norm, 1), ratio);
    }
    Node bc1 = g.sub(g.full(step, 1), g.pow(g.full(step, cfg.beta1()), step));
    Node bc2 = g.sub(g.full(step, 1), g.pow(g.full(step, cfg.beta2()), step));
    Node stepSize = g.div(lr, bc1); // η / (1 - β1^t)
    Node sqrtBc2 = g.sqrt(bc2);
    Node decay = g.sub(g.full(lr, 1), g.mul(lr, g.full(lr, cfg.weightDecay()))); // 1 - ηλ
    List<Node> w2 = new ArrayList<>();
    List<Node> m2 = new ArrayList<>();
    List<Node> v2 = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Node w = weights.get(i);
      Shape s = w.shape();
      Node gi = g.mul(grads.get(i), g.broadcastTo(scale, s));
      Node mi =
          g.add(g.mul(m.get(i), g.full(w, cfg.beta1())), g.mul(gi, g.full(w, 1 - cfg.beta1())));
      Node vi =
          g.add(
              g.mul(v.get(i), g.full(w, cfg.beta2())),
              g.mul(g.mul(gi, gi), g.full(w, 1 - cfg.beta2())));
      Node denom = g.add(g.div(g.sqrt(vi), g.broadcastTo(sqrtBc2, s)), g.full(w, cfg.eps()));
      Node wi =
          g.sub(
              g.mul(w, g.broadcastTo(decay, s)),
              g.mul(g.broadcastTo(stepSize, s), g.div(mi, denom)));
      Node okS = g.broadcastTo(ok, s);
      w2.add(g.select(okS, wi, w));
      m2.add(g.select(okS, mi, m.get(i)));
      v2.add(g.select(okS, vi, v.get(i)));
    }
    Node applied = g.select(ok, g.full(norm, 1), g.full(norm, 0));
    return new Update(w2, m2, v2, norm, applied);
  }

  /** Σ_i Σ g_i² as an f32 scalar. */
  static Node sumOfSquares(GraphBuilder g, List<Node> xs) {
    Node total = g.constant(0, DType.F32, Shape.scalar());
    for (Node x : xs) {
      int[] all = new int[x.shape().rank()];
      for (int d = 0; d < all.length; d++) {
        all[d] = d;
      }
      total = g.add(total, g.reduceSum(g.mul(x, x), all));
    }
    return total;
  }
}
