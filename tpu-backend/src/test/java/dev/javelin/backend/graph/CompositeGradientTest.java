package dev.javelin.backend.graph;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Op.Direction;
import dev.javelin.backend.testing.GradCheck;
import dev.javelin.backend.testing.Tensors;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Finite-difference checks of the building blocks a decoder is made of, composed from primitives:
 * log-softmax with a token gather, RMSNorm, causal attention, a SwiGLU MLP.
 */
class CompositeGradientTest {
  private final Random rng = new Random(11);

  private Tensor x(int... dims) {
    return Tensors.random(rng, DType.F64, dims);
  }

  /** log p(token) = logits[token] - logsumexp(logits), per row; logits (N, V), tokens (N). */
  static Node tokenLogProbs(GraphBuilder g, Node logits, Node tokens) {
    int n = logits.shape().dim(0);
    int v = logits.shape().dim(1);
    Node max = g.reduceMax(logits, 1); // (N)
    Node shifted = g.sub(logits, g.broadcastInDim(max, logits.shape(), 0));
    Node lse = g.log(g.reduceSum(g.exp(shifted), 1)); // (N)
    Node vocab = g.iota(DType.I32, Shape.of(n, v), 1);
    Node hit = g.compare(vocab, g.broadcastInDim(tokens, Shape.of(n, v), 0), Direction.EQ);
    Node picked = g.reduceSum(g.select(hit, shifted, g.full(shifted, 0)), 1); // (N)
    return g.sub(picked, lse);
  }

  static Node rmsNorm(GraphBuilder g, Node x, Node weight, double eps) {
    Shape s = x.shape();
    int last = s.rank() - 1;
    Node meanSq =
        g.div(
            g.reduceSum(g.mul(x, x), last), g.constant(s.dim(last), x.dtype(), Shape.of(s.dim(0))));
    Node inv = g.rsqrt(g.add(meanSq, g.full(meanSq, eps)));
    return g.mul(g.mul(x, g.broadcastInDim(inv, s, 0)), g.broadcastTo(weight, s));
  }

  @ParameterizedTest
  @EnumSource(Remat.class)
  void logSoftmaxWithTokenGather(Remat remat) {
    GradCheck.check(
        "logprobs",
        (g, p) -> tokenLogProbs(g, p.get(0), p.get(1)),
        List.of(x(4, 7), Tensor.ofInts(new int[] {0, 6, 3, 3}, 4)),
        GradCheck.Options.defaults().withRemat(remat));
  }

  @ParameterizedTest
  @EnumSource(Remat.class)
  void rmsNormBothInputs(Remat remat) {
    GradCheck.check(
        "rmsnorm",
        (g, p) -> rmsNorm(g, p.get(0), p.get(1), 1e-6),
        List.of(x(3, 8), x(8)),
        GradCheck.Options.defaults().withRemat(remat));
  }

  @ParameterizedTest
  @EnumSource(Remat.class)
  void causalSelfAttention(Remat remat) {
    // q, k, v (H, T, D); scores (H, T, T) masked below the diagonal, softmax, weighted sum.
    GradCheck.check(
        "attention",
        (g, p) -> {
          Node q = p.get(0);
          Node k = p.get(1);
          Node v = p.get(2);
          int[] b = {0};
          Node scores = g.dotGeneral(q, k, b, b, new int[] {2}, new int[] {2}); // (H, T, T)
          Shape s = scores.shape();
          Node row = g.iota(DType.I32, s, 1);
          Node col = g.iota(DType.I32, s, 2);
          Node masked = g.select(g.compare(col, row, Direction.LE), scores, g.full(scores, -1e9));
          Node max = g.reduceMax(masked, 2);
          Node e = g.exp(g.sub(masked, g.broadcastInDim(max, s, 0, 1)));
          Node probs = g.div(e, g.broadcastInDim(g.reduceSum(e, 2), s, 0, 1));
          return g.dotGeneral(probs, v, b, b, new int[] {2}, new int[] {1}); // (H, T, D)
        },
        List.of(x(2, 4, 3), x(2, 4, 3), x(2, 4, 3)),
        GradCheck.Options.defaults().withRemat(remat));
  }

  @ParameterizedTest
  @EnumSource(Remat.class)
  void swigluMlp(Remat remat) {
    GradCheck.check(
        "swiglu",
        (g, p) -> {
          Node xIn = p.get(0);
          Node gate = g.matmulTransposed(xIn, p.get(1));
          Node up = g.matmulTransposed(xIn, p.get(2));
          Node silu = g.mul(gate, g.logistic(gate));
          return g.matmulTransposed(g.mul(silu, up), p.get(3));
        },
        List.of(x(3, 4), x(6, 4), x(6, 4), x(4, 6)),
        GradCheck.Options.defaults().withRemat(remat));
  }

  @ParameterizedTest
  @EnumSource(Remat.class)
  void embeddingThenRotaryHalfSplit(Remat remat) {
    GradCheck.check(
        "embed+rotate",
        (g, p) -> {
          Node h = g.gather(p.get(0), p.get(1)); // (T, D)
          Node first = g.sliceAxis(h, 1, 0, 2);
          Node second = g.sliceAxis(h, 1, 2, 4);
          Node rotated = g.concatenate(1, List.of(g.neg(second), first));
          Node cos = g.tanh(h);
          return g.add(g.mul(h, cos), rotated);
        },
        List.of(x(5, 4), Tensor.ofInts(new int[] {4, 0, 4}, 3)),
        GradCheck.Options.defaults().withRemat(remat));
  }
}
