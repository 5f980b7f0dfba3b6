package dev.javelin.backend.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.reference.ReferenceDevice;
import dev.javelin.backend.testing.Tensors;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Rematerialisation keeps gradients exact and shrinks what crosses to the backward program. */
class RematTest {
  private final Random rng = new Random(5);

  /** Per-row token log-probs and entropy of softmax(x·wᵀ): the logits head of a policy. */
  private static Program head(DType dtype) {
    GraphBuilder g = new GraphBuilder("head");
    Node x = g.parameter("x", dtype, Shape.of(6, 8));
    Node w = g.parameter("w", dtype, Shape.of(32, 8));
    Node tokens = g.parameter("tokens", DType.I32, Shape.of(6));
    Node logits = g.matmulTransposed(x, w); // (N, V)
    Node logp = CompositeGradientTest.tokenLogProbs(g, logits, tokens);
    Node max = g.reduceMax(logits, 1);
    Node shifted = g.sub(logits, g.broadcastInDim(max, logits.shape(), 0));
    Node e = g.exp(shifted);
    Node z = g.reduceSum(e, 1);
    Node p = g.div(e, g.broadcastInDim(z, logits.shape(), 0));
    Node logProbs = g.sub(shifted, g.broadcastInDim(g.log(z), logits.shape(), 0));
    Node entropy = g.neg(g.reduceSum(g.mul(p, logProbs), 1));
    return g.build(logp, entropy);
  }

  private static long residualElements(VjpPrograms split) {
    long n = 0;
    for (int i = 0; i < split.residuals().size(); i++) {
      if (split.residuals().get(i).source() == VjpPrograms.Residual.Source.FORWARD_RESULT) {
        n += split.backward().parameters().get(i).shape().size();
      }
    }
    return n;
  }

  @Test
  void elementwiseRematMatchesAndSavesMemory() {
    Program fwd = head(DType.F64);
    Set<Integer> both = Set.of(0, 1);
    VjpPrograms saveAll = Autodiff.vjp(fwd, List.of("x", "w"), both, Remat.NONE);
    VjpPrograms remat = Autodiff.vjp(fwd, List.of("x", "w"), both, Remat.ELEMENTWISE);
    List<Tensor> args =
        List.of(
            Tensors.random(rng, DType.F64, 6, 8),
            Tensors.random(rng, DType.F64, 32, 8),
            Tensors.randomInts(rng, 32, 6));
    List<Tensor> cts =
        List.of(Tensors.random(rng, DType.F64, 6), Tensors.random(rng, DType.F64, 6));
    List<Tensor> expected = run(saveAll, args, cts);
    List<Tensor> actual = run(remat, args, cts);
    for (int i = 0; i < expected.size(); i++) {
      Tensors.assertClose(expected.get(i), actual.get(i), 1e-12, "grad " + i);
    }
    long before = residualElements(saveAll);
    long after = residualElements(remat);
    // Only the logits (6 x 32) and per-row reductions should cross under remat.
    assertTrue(after <= 6 * 32 + 4 * 6, "remat residual elements " + after);
    assertTrue(before >= 3 * after, "save-all residual elements " + before + " vs " + after);
  }

  @Test
  void valuesCheaplyBuiltFromArgumentsAreNotResiduals() {
    VjpPrograms split = Autodiff.vjp(head(DType.F64), List.of("x", "w"), Set.of(0, 1), Remat.NONE);
    for (int i = 0; i < split.residuals().size(); i++) {
      if (split.residuals().get(i).source() == VjpPrograms.Residual.Source.FORWARD_RESULT) {
        Node r = split.forward().outputs().get(split.residuals().get(i).index());
        assertTrue(
            r.dtype() == DType.F64 && !(r.op() instanceof Op.BroadcastInDim),
            "the token one-hot mask and broadcasts are rebuilt from the ids, not passed: " + r);
      }
    }
    assertTrue(
        split
            .residuals()
            .contains(new VjpPrograms.Residual(VjpPrograms.Residual.Source.ARGUMENT, 2)),
        "the token ids are passed again instead: " + split.residuals());
  }

  @Test
  void inGraphGradientUnderRematIsExact() {
    Program fwd = head(DType.F64);
    GraphBuilder g = new GraphBuilder("loss");
    GraphCopier c = new GraphCopier(g);
    c.bindParameters(fwd);
    List<Node> ys = c.copyAll(fwd.outputs());
    Node loss = g.add(g.reduceSum(ys.get(0), 0), g.reduceSum(ys.get(1), 0));
    Program lossProgram = g.build(loss);
    List<Tensor> args =
        List.of(
            Tensors.random(rng, DType.F64, 6, 8),
            Tensors.random(rng, DType.F64, 32, 8),
            Tensors.randomInts(rng, 32, 6));
    List<Tensor> a =
        ReferenceDevice.evaluate(
            Autodiff.gradientProgram(lossProgram, List.of("x", "w"), Remat.NONE), args);
    List<Tensor> b =
        ReferenceDevice.evaluate(
            Autodiff.gradientProgram(lossProgram, List.of("x", "w"), Remat.ELEMENTWISE), args);
    assertEquals(a.size(), b.size());
    for (int i = 0; i < a.size(); i++) {
      Tensors.assertClose(a.get(i), b.get(i), 1e-12, "output " + i);
    }
  }

  private static List<Tensor> run(VjpPrograms split, List<Tensor> args, List<Tensor> cts) {
    List<Tensor> results = ReferenceDevice.evaluate(split.forward(), args);
    return ReferenceDevice.evaluate(split.backward(), split.backwardArguments(args, results, cts));
  }
}
