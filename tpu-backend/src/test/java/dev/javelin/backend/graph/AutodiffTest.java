package dev.javelin.backend.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.VjpPrograms.Residual;
import dev.javelin.backend.reference.ReferenceDevice;
import dev.javelin.backend.testing.Tensors;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Structure of the gradient graphs and the forward/backward split. */
class AutodiffTest {
  private final Random rng = new Random(3);

  @Test
  void unusedParameterGetsZeros() {
    GraphBuilder g = new GraphBuilder("unused");
    Node x = g.parameter("x", DType.F64, Shape.of(2));
    Node y = g.parameter("y", DType.F64, Shape.of(3));
    List<Node> grads = Autodiff.gradient(g, g.reduceSum(g.mul(x, x), 0), List.of(x, y));
    List<Tensor> out =
        ReferenceDevice.evaluate(
            g.build(grads),
            List.of(Tensors.f64(new double[] {1, -2}, 2), Tensors.f64(new double[3], 3)));
    assertEquals(List.of(2.0, -4.0), boxed(out.get(0)));
    assertEquals(List.of(0.0, 0.0, 0.0), boxed(out.get(1)));
  }

  @Test
  void gradientWithRespectToAnIntermediate() {
    GraphBuilder g = new GraphBuilder("mid");
    Node x = g.parameter("x", DType.F64, Shape.of(2));
    Node h = g.mul(x, g.full(x, 3));
    Node loss = g.reduceSum(g.mul(h, h), 0);
    List<Node> grads = Autodiff.gradient(g, loss, List.of(h, x));
    List<Tensor> out =
        ReferenceDevice.evaluate(g.build(grads), List.of(Tensors.f64(new double[] {1, 2}, 2)));
    assertEquals(List.of(6.0, 12.0), boxed(out.get(0))); // 2h
    assertEquals(List.of(18.0, 36.0), boxed(out.get(1))); // 2h * 3
  }

  @Test
  void linearLayerGradientsNeedNoTranspose() {
    GraphBuilder g = new GraphBuilder("linear");
    Node x = g.parameter("x", DType.F32, Shape.of(2, 3, 4));
    Node w = g.parameter("w", DType.F32, Shape.of(5, 4));
    Node loss = g.reduceSum(g.matmulTransposed(x, w), 0, 1, 2);
    Program p = g.build(Autodiff.gradient(g, loss, List.of(x, w)));
    assertFalse(
        p.nodes().stream().anyMatch(n -> n.op() instanceof Op.Transpose), p.nodes().toString());
  }

  @Test
  void rejectsNonScalarLossAndIntegerTargets() {
    GraphBuilder g = new GraphBuilder("bad");
    Node x = g.parameter("x", DType.F32, Shape.of(2));
    Node ids = g.parameter("ids", DType.I32, Shape.of(2));
    assertThrows(IllegalArgumentException.class, () -> Autodiff.gradient(g, x, List.of(x)));
    Node loss = g.reduceSum(x, 0);
    assertThrows(IllegalArgumentException.class, () -> Autodiff.gradient(g, loss, List.of(ids)));
  }

  @Test
  void f32GradientsAgreeWithF64() {
    Tensor xs = Tensors.random(rng, DType.F64, 4, 6);
    Tensor ws = Tensors.random(rng, DType.F64, 3, 6);
    List<Tensor> g64 = mlpGrads(DType.F64, xs, ws);
    List<Tensor> g32 =
        mlpGrads(DType.F32, Tensors.convert(xs, DType.F32), Tensors.convert(ws, DType.F32));
    for (int i = 0; i < g64.size(); i++) {
      Tensors.assertClose(g64.get(i), g32.get(i), 1e-5, "grad " + i);
    }
  }

  private static List<Tensor> mlpGrads(DType dtype, Tensor xs, Tensor ws) {
    GraphBuilder g = new GraphBuilder("mlp");
    Node x = g.parameter("x", dtype, xs.shape());
    Node w = g.parameter("w", dtype, ws.shape());
    Node h = g.tanh(g.matmulTransposed(x, w));
    Node loss = g.reduceSum(g.mul(h, h), 0, 1);
    return ReferenceDevice.evaluate(
        g.build(Autodiff.gradient(g, loss, List.of(x, w))), List.of(xs, ws));
  }

  /** y1 = tanh(x·wᵀ) masked by a causal-style constant, y2 = argmax-ish ids, y3 = Σ y1². */
  private static Program twoHeadForward() {
    GraphBuilder g = new GraphBuilder("heads");
    Node x = g.parameter("x", DType.F64, Shape.of(3, 4));
    Node w = g.parameter("w", DType.F64, Shape.of(3, 4));
    Node bias = g.parameter("bias", DType.F64, Shape.of(3));
    Node mask =
        g.convert(
            g.compare(
                g.iota(DType.I32, Shape.of(3, 3), 1),
                g.iota(DType.I32, Shape.of(3, 3), 0),
                Op.Direction.LE),
            DType.F64);
    Node y1 =
        g.mul(g.tanh(g.add(g.matmulTransposed(x, w), g.broadcastTo(bias, Shape.of(3, 3)))), mask);
    Node ids = g.convert(y1, DType.I32);
    Node y3 = g.reduceSum(g.mul(y1, y1), 0, 1);
    return g.build(y1, ids, y3);
  }

  @Test
  void vjpSplitMatchesInGraphGradient() {
    Program fwd = twoHeadForward();
    VjpPrograms split = Autodiff.vjp(fwd, List.of("w", "bias"));
    assertEquals(List.of(0, 2), split.cotangentOutputs());
    List<Tensor> args =
        List.of(
            Tensors.random(rng, DType.F64, 3, 4),
            Tensors.random(rng, DType.F64, 3, 4),
            Tensors.random(rng, DType.F64, 3));
    Tensor c1 = Tensors.random(rng, DType.F64, 3, 3);
    Tensor c3 = Tensors.f64(new double[] {0.7});
    List<Tensor> results = ReferenceDevice.evaluate(split.forward(), args);
    List<Tensor> original = ReferenceDevice.evaluate(fwd, args);
    for (int i = 0; i < original.size(); i++) {
      Tensors.assertClose(original.get(i), split.outputs(results).get(i), 0, "output " + i);
    }
    List<Tensor> grads =
        ReferenceDevice.evaluate(
            split.backward(), split.backwardArguments(args, results, List.of(c1, c3)));

    // The same gradients built in one graph: L = Σ y1 ⊙ c1 + 0.7 · y3.
    GraphBuilder g = new GraphBuilder("check");
    GraphCopier copier = new GraphCopier(g);
    copier.bindParameters(fwd);
    List<Node> ys = copier.copyAll(fwd.outputs());
    Node c = g.parameter("c1", DType.F64, Shape.of(3, 3));
    Node loss =
        g.add(
            g.reduceSum(g.mul(ys.get(0), c), 0, 1),
            g.mul(ys.get(2), g.constant(0.7, DType.F64, Shape.scalar())));
    List<Node> wrt = List.of(copier.copy(fwd.parameter("w")), copier.copy(fwd.parameter("bias")));
    List<Tensor> checkArgs = new ArrayList<>(args);
    checkArgs.add(c1);
    List<Tensor> expected =
        ReferenceDevice.evaluate(g.build(Autodiff.gradient(g, loss, wrt)), checkArgs);
    Tensors.assertClose(expected.get(0), grads.get(0), 1e-12, "dw");
    Tensors.assertClose(expected.get(1), grads.get(1), 1e-12, "dbias");
  }

  @Test
  void vjpResidualsReuseArgumentsAndRecomputeConstants() {
    VjpPrograms split = Autodiff.vjp(twoHeadForward(), List.of("w"));
    assertTrue(
        split.residuals().contains(new Residual(Residual.Source.ARGUMENT, 0)),
        "x is read by the backward pass straight from the arguments: " + split.residuals());
    for (Node p : split.backward().parameters()) {
      assertFalse(
          p.dtype() == DType.PRED || p.dtype() == DType.I32,
          "masks from iota are recomputed, not passed: " + p);
    }
    assertTrue(split.forward().outputs().size() > 3, "tanh output is an extra forward result");
  }

  @Test
  void vjpOfSelectedOutputsIgnoresTheOthers() {
    Program fwd = twoHeadForward();
    VjpPrograms all = Autodiff.vjp(fwd, List.of("w"));
    VjpPrograms firstOnly = Autodiff.vjp(fwd, List.of("w"), java.util.Set.of(0));
    assertEquals(List.of(0), firstOnly.cotangentOutputs());
    List<Tensor> args =
        List.of(
            Tensors.random(rng, DType.F64, 3, 4),
            Tensors.random(rng, DType.F64, 3, 4),
            Tensors.random(rng, DType.F64, 3));
    Tensor c1 = Tensors.random(rng, DType.F64, 3, 3);
    List<Tensor> r1 = ReferenceDevice.evaluate(firstOnly.forward(), args);
    Tensor g1 =
        ReferenceDevice.evaluate(
                firstOnly.backward(), firstOnly.backwardArguments(args, r1, List.of(c1)))
            .get(0);
    List<Tensor> r2 = ReferenceDevice.evaluate(all.forward(), args);
    Tensor zero = Tensors.f64(new double[] {0});
    Tensor g2 =
        ReferenceDevice.evaluate(all.backward(), all.backwardArguments(args, r2, List.of(c1, zero)))
            .get(0);
    Tensors.assertClose(g2, g1, 1e-12, "dw from output 0 alone");
    assertTrue(
        firstOnly.backward().nodes().size() < all.backward().nodes().size(),
        "pruned backward is smaller");
    assertThrows(
        IllegalArgumentException.class,
        () -> Autodiff.vjp(fwd, List.of("w"), java.util.Set.of(1)),
        "the i32 output takes no cotangent");
  }

  /** logsumexp over rows with the max shift, optionally marked as a constant. */
  private static Program logSumExp(boolean stop) {
    GraphBuilder g = new GraphBuilder("lse");
    Node x = g.parameter("x", DType.F64, Shape.of(3, 5));
    Node max = g.reduceMax(x, 1);
    if (stop) {
      g.stopGradient(max);
    }
    Node mb = g.broadcastInDim(max, x.shape(), 0);
    Node lse = g.add(g.log(g.reduceSum(g.exp(g.sub(x, mb)), 1)), max);
    return g.build(g.reduceSum(g.mul(lse, lse), 0));
  }

  @Test
  void stopGradientOnTheSoftmaxShiftKeepsGradientsAndDropsTheMaxPath() {
    Tensor x = Tensors.random(rng, DType.F64, 3, 5);
    Program full = Autodiff.gradientProgram(logSumExp(false), List.of("x"));
    Program stopped = Autodiff.gradientProgram(logSumExp(true), List.of("x"));
    Tensor expected = ReferenceDevice.evaluate(full, List.of(x)).get(1);
    Tensor actual = ReferenceDevice.evaluate(stopped, List.of(x)).get(1);
    Tensors.assertClose(expected, actual, 1e-12, "d lse / dx");
    assertTrue(
        full.nodes().stream().anyMatch(n -> n.op() instanceof Op.Compare),
        "the max VJP compares against the max");
    assertFalse(
        stopped.nodes().stream().anyMatch(n -> n.op() instanceof Op.Compare),
        "a stopped max has no VJP");
  }

  @Test
  void stoppedNodeIsAValidTargetButPassesNothingOn() {
    GraphBuilder g = new GraphBuilder("stop");
    Node x = g.parameter("x", DType.F64, Shape.of(2));
    Node m = g.stopGradient(g.mul(x, x)); // m = x², a constant for autodiff
    Node loss = g.reduceSum(g.mul(m, x), 0); // Σ m·x
    List<Node> grads = Autodiff.gradient(g, loss, List.of(x, m));
    List<Tensor> out =
        ReferenceDevice.evaluate(g.build(grads), List.of(Tensors.f64(new double[] {2, 3}, 2)));
    assertEquals(List.of(4.0, 9.0), boxed(out.get(0)), "dx = m only, not m + 2x²");
    assertEquals(List.of(2.0, 3.0), boxed(out.get(1)), "dm = x");
  }

  @Test
  void stopGradientSurvivesTheVjpSplit() {
    VjpPrograms split = Autodiff.vjp(logSumExp(true), List.of("x"));
    assertFalse(
        split.backward().nodes().stream().anyMatch(n -> n.op() instanceof Op.Compare),
        split.backward().nodes().toString());
  }

  @Test
  void inGraphSgdStepLowersTheLoss() {
    // The README example: loss, gradient and update in one program.
    GraphBuilder g = new GraphBuilder("mlp_step");
    Node x = g.parameter("x", DType.F32, Shape.of(32, 64));
    Node w = g.parameter("w", DType.F32, Shape.of(16, 64));
    Node h = g.tanh(g.matmulTransposed(x, w)); // (32, 16)
    Node loss = g.reduceSum(g.mul(h, h), 0, 1);
    Node dw = Autodiff.gradient(g, loss, List.of(w)).get(0); // (16, 64)
    Node w2 = g.sub(w, g.mul(g.full(dw, 0.01), dw));
    Program step = g.build(loss, w2);
    Tensor xs = Tensors.random(rng, DType.F32, 32, 64);
    Tensor ws = Tensors.random(rng, DType.F32, 16, 64);
    double first = Double.NaN;
    double last = Double.POSITIVE_INFINITY;
    for (int i = 0; i < 5; i++) {
      List<Tensor> out = ReferenceDevice.evaluate(step, List.of(xs, ws));
      double l = out.get(0).getDouble(0);
      assertTrue(l < last, "step " + i + ": loss " + l + " after " + last);
      last = l;
      first = i == 0 ? l : first;
      ws = out.get(1);
    }
    assertTrue(last < 0.9 * first, "loss " + first + " -> " + last);
  }

  @Test
  void vjpRejectsUnknownParameter() {
    var e =
        assertThrows(
            IllegalArgumentException.class, () -> Autodiff.vjp(twoHeadForward(), List.of("nope")));
    assertTrue(e.getMessage().contains("nope"), e.getMessage());
  }

  private static List<Double> boxed(Tensor t) {
    List<Double> out = new ArrayList<>();
    for (double d : Tensors.toDoubles(t)) {
      out.add(d);
    }
    return out;
  }
}
