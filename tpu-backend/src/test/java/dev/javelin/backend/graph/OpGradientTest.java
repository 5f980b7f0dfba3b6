package dev.javelin.backend.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Op.BinaryKind;
import dev.javelin.backend.graph.Op.Direction;
import dev.javelin.backend.graph.Op.UnaryKind;
import dev.javelin.backend.reference.ReferenceDevice;
import dev.javelin.backend.testing.GradCheck;
import dev.javelin.backend.testing.RelError;
import dev.javelin.backend.testing.Tensors;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Finite-difference checks (f64, reference device) of the VJP rule of every primitive op. */
class OpGradientTest {
  private final Random rng = new Random(7);

  private Tensor x(int... dims) {
    return Tensors.random(rng, DType.F64, dims);
  }

  private Tensor positive(int... dims) {
    return Tensors.uniform(rng, DType.F64, Shape.of(dims), 0.5, 2);
  }

  private static Tensor.I32 ints(int[] values, int... dims) {
    return Tensor.ofInts(values, dims);
  }

  @ParameterizedTest
  @EnumSource(UnaryKind.class)
  void unary(UnaryKind kind) {
    boolean needsPositive =
        kind == UnaryKind.LOG || kind == UnaryKind.SQRT || kind == UnaryKind.RSQRT;
    Tensor in = needsPositive ? positive(3, 4) : x(3, 4);
    GradCheck.check(kind.name(), (g, p) -> g.unary(kind, p.get(0)), List.of(in));
  }

  @ParameterizedTest
  @EnumSource(BinaryKind.class)
  void binary(BinaryKind kind) {
    boolean positive = kind == BinaryKind.POW || kind == BinaryKind.DIV;
    Tensor a = kind == BinaryKind.POW ? positive(2, 5) : x(2, 5);
    Tensor b = positive ? positive(2, 5) : x(2, 5);
    GradCheck.check(kind.name(), (g, p) -> g.binary(kind, p.get(0), p.get(1)), List.of(a, b));
  }

  @Test
  void powWithConstantExponentOfNegativeBase() {
    GradCheck.check("square", (g, p) -> g.pow(p.get(0), g.full(p.get(0), 2)), List.of(x(6)));
  }

  @Test
  void sameOperandTwice() {
    GradCheck.check("x*x+x", (g, p) -> g.add(g.mul(p.get(0), p.get(0)), p.get(0)), List.of(x(4)));
  }

  @Test
  void compareAndSelect() {
    GradCheck.check(
        "select",
        (g, p) -> g.select(g.compare(p.get(2), p.get(0), Direction.LT), p.get(0), p.get(1)),
        List.of(x(3, 3), x(3, 3), x(3, 3)));
  }

  @Test
  void convertBetweenFloatTypes() {
    GradCheck.check(
        "convert",
        (g, p) -> g.mul(g.convert(g.convert(p.get(0), DType.F32), DType.F64), p.get(0)),
        List.of(x(5)),
        GradCheck.Options.defaults().withEpsilon(1e-3).withTolerance(1e-5));
  }

  /**
   * A bf16 matmul with an f32 result between f32 values (the mixed-precision layer): its gradients,
   * through the convert and dot_general rules, match the all-f64 program's to bf16 accuracy. A
   * cotangent left in f32, or sent back unconverted, fails to build or misses by far more.
   */
  @Test
  void mixedPrecisionDotGradientsFollowTheF64Ones() {
    Tensor x = Tensors.random(rng, DType.F32, 6, 40);
    Tensor w = Tensors.random(rng, DType.F32, 9, 40);
    List<Tensor> mixed = gradients(DType.BF16, x, w);
    List<Tensor> exact = gradients(DType.F64, x, w);
    for (int i = 0; i < 2; i++) {
      assertEquals(DType.F32, mixed.get(i).dtype());
      double rel = RelError.of(exact.get(i), mixed.get(i), null);
      assertTrue(rel < 0.02, "gradient " + i + ": normwise error " + rel + " vs f64");
      assertTrue(rel > 1e-5, "gradient " + i + " shows no bf16 rounding at all: " + rel);
    }
  }

  /** ∂/∂(x, w) of sum(tanh(x·wᵀ)) with the product computed in {@code compute}, for f32 x, w. */
  private static List<Tensor> gradients(DType compute, Tensor x, Tensor w) {
    GraphBuilder g = new GraphBuilder("mixed_" + compute);
    Node xp = g.parameter("x", DType.F32, x.shape());
    Node wp = g.parameter("w", DType.F32, w.shape());
    int[] none = new int[0];
    DType result = compute == DType.BF16 ? DType.F32 : compute;
    Node y =
        g.dotGeneral(
            g.convert(xp, compute),
            g.convert(wp, compute),
            none,
            none,
            new int[] {1},
            new int[] {1},
            result);
    Node loss = g.reduceSum(g.tanh(g.convert(y, DType.F64)), 0, 1);
    List<Node> grads = Autodiff.gradient(g, loss, List.of(xp, wp));
    return ReferenceDevice.evaluate(g.build(grads), List.of(x, w));
  }

  @Test
  void convertThroughIntegerStopsGradient() {
    GradCheck.check(
        "floor",
        (g, p) -> g.add(p.get(0), g.convert(g.convert(p.get(0), DType.I32), DType.F64)),
        List.of(Tensors.uniform(rng, DType.F64, Shape.of(4), 0.2, 0.8)));
  }

  @Test
  void constantAndIota() {
    GradCheck.check(
        "iota",
        (g, p) ->
            g.mul(
                g.add(p.get(0), g.constant(0.5, DType.F64, Shape.of(2, 3))),
                g.iota(DType.F64, Shape.of(2, 3), 1)),
        List.of(x(2, 3)));
  }

  @Test
  void broadcastInDim() {
    GradCheck.check(
        "add dims", (g, p) -> g.broadcastInDim(p.get(0), Shape.of(2, 3, 4), 1), List.of(x(3)));
    GradCheck.check(
        "stretch", (g, p) -> g.broadcastInDim(p.get(0), Shape.of(3, 4, 2), 0, 1), List.of(x(3, 1)));
    GradCheck.check("scalar", (g, p) -> g.broadcastTo(p.get(0), Shape.of(2, 2)), List.of(x()));
  }

  @Test
  void reduceSum() {
    GradCheck.check("sum02", (g, p) -> g.reduceSum(p.get(0), 0, 2), List.of(x(2, 3, 4)));
    GradCheck.check("sumAll", (g, p) -> g.reduceSum(p.get(0), 0, 1), List.of(x(3, 2)));
  }

  @Test
  void reduceMax() {
    GradCheck.check("max1", (g, p) -> g.reduceMax(p.get(0), 1), List.of(x(3, 5, 2)));
  }

  @Test
  void reshapeAndTranspose() {
    GradCheck.check("reshape", (g, p) -> g.reshape(p.get(0), 4, 3, 2), List.of(x(2, 3, 4)));
    GradCheck.check("transpose", (g, p) -> g.transpose(p.get(0), 2, 0, 1), List.of(x(2, 3, 4)));
  }

  @Test
  void matmulLayouts() {
    GradCheck.check("matmul", (g, p) -> g.matmul(p.get(0), p.get(1)), List.of(x(2, 3, 4), x(4, 5)));
    GradCheck.check(
        "linear", (g, p) -> g.matmulTransposed(p.get(0), p.get(1)), List.of(x(2, 3, 4), x(5, 4)));
  }

  @Test
  void dotGeneralWithBatchDims() {
    // (B, H, T, D) x (B, H, S, D) -> (B, H, T, S), the attention score layout.
    GradCheck.check(
        "scores",
        (g, p) ->
            g.dotGeneral(
                p.get(0),
                p.get(1),
                new int[] {0, 1},
                new int[] {0, 1},
                new int[] {3},
                new int[] {3}),
        List.of(x(2, 2, 3, 4), x(2, 2, 5, 4)));
    // Batch and contracting dims in unusual positions: lhs (K, B, M), rhs (N, B, K).
    GradCheck.check(
        "scrambled",
        (g, p) ->
            g.dotGeneral(
                p.get(0), p.get(1), new int[] {1}, new int[] {1}, new int[] {0}, new int[] {2}),
        List.of(x(4, 2, 3), x(5, 2, 4)));
  }

  @Test
  void dotGeneralWithSeveralContractingDims() {
    GradCheck.check(
        "double contraction",
        (g, p) ->
            g.dotGeneral(
                p.get(0), p.get(1), new int[0], new int[0], new int[] {0, 2}, new int[] {1, 0}),
        List.of(x(3, 2, 4), x(4, 3, 5)));
    GradCheck.check(
        "inner product",
        (g, p) ->
            g.dotGeneral(p.get(0), p.get(1), new int[0], new int[0], new int[] {0}, new int[] {0}),
        List.of(x(6), x(6)));
  }

  @Test
  void optimizationBarrierPassesEachCotangentToItsOperand() {
    GradCheck.check(
        "optimization_barrier",
        (g, p) -> {
          List<Node> f = g.optimizationBarrier(List.of(p.get(0), p.get(1)));
          return g.add(g.mul(f.get(0), f.get(1)), g.mul(f.get(0), f.get(0)));
        },
        List.of(x(2, 3), x(2, 3)));
  }

  /**
   * A value read in disjoint windows along one axis (with a gap) gets one cotangent joined by
   * concatenate, not one zero-padded full-size tensor per window; overlapping windows still add.
   */
  @Test
  void windowsOfOneAxisJoinTheirCotangents() {
    GradCheck.Fn windows =
        (g, p) -> {
          Node x = p.get(0);
          Node a = g.sliceAxis(x, 1, 0, 2);
          Node b = g.sliceAxis(x, 1, 3, 6);
          Node c = g.sliceAxis(x, 1, 2, 3);
          return g.add(
              g.add(g.reduceSum(g.mul(a, a), 0, 1), g.reduceSum(g.exp(b), 0, 1)),
              g.reduceSum(g.mul(c, g.sliceAxis(x, 1, 5, 6)), 0, 1));
        };
    GradCheck.check("windows", windows, List.of(x(3, 7)));
    GraphBuilder g = new GraphBuilder("windows");
    Node x = g.parameter("x", DType.F64, Shape.of(3, 7));
    Node loss = windows.apply(g, List.of(x));
    Node dx = Autodiff.gradient(g, loss, List.of(x)).get(0);
    Program p = g.build(dx);
    long padded = p.nodes().stream().filter(n -> n.op() instanceof Op.DynamicUpdateSlice).count();
    // The windows [0,2), [2,3), [3,6) tile one axis with a gap at 6; [5,6) overlaps [3,6).
    assertEquals(1, padded, "only the overlapping window is padded: " + p.nodes());
    assertTrue(p.nodes().stream().anyMatch(n -> n.op() instanceof Op.Concatenate));
  }

  @Test
  void slices() {
    GradCheck.check("sliceAxis", (g, p) -> g.sliceAxis(p.get(0), 1, 1, 3), List.of(x(2, 4)));
    GradCheck.check(
        "strided",
        (g, p) -> g.slice(p.get(0), new int[] {1, 0, 1}, new int[] {5, 3, 4}, new int[] {2, 1, 2}),
        List.of(x(6, 3, 5)));
  }

  @Test
  void concatenate() {
    GradCheck.check(
        "concat",
        (g, p) -> g.concatenate(1, List.of(p.get(0), p.get(1), p.get(0))),
        List.of(x(2, 1, 3), x(2, 3, 3)));
  }

  @Test
  void dynamicUpdateSlice() {
    GradCheck.check(
        "dus",
        (g, p) -> g.dynamicUpdateSlice(p.get(0), p.get(1), List.of(p.get(2), p.get(3))),
        List.of(x(4, 5), x(2, 3), Tensors.i32Scalar(1), Tensors.i32Scalar(9)));
  }

  @Test
  void updateSlotsSkipsOutOfRangeRows() {
    GradCheck.check(
        "update_slots",
        (g, p) -> g.updateSlots(p.get(0), p.get(1), p.get(2), 2),
        List.of(x(4, 2, 5, 3), x(4, 2, 1, 3), ints(new int[] {3, 5, 0, -1}, 4)));
  }

  @Test
  void dynamicSlice() {
    GradCheck.check(
        "ds",
        (g, p) -> g.dynamicSlice(p.get(0), List.of(p.get(1), p.get(2)), 2, 2),
        List.of(x(4, 5), Tensors.i32Scalar(-3), Tensors.i32Scalar(2)));
  }

  @Test
  void gatherWithRepeatedAndOutOfRangeIds() {
    GradCheck.check(
        "gather",
        (g, p) -> g.gather(p.get(0), p.get(1)),
        List.of(x(4, 3), ints(new int[] {1, 3, 1, 9, -2, 0}, 2, 3)));
  }

  @Test
  void scatterAddSkipsOutOfRangeIds() {
    GradCheck.check(
        "scatter",
        (g, p) -> g.scatterAdd(p.get(0), p.get(1), 4),
        List.of(ints(new int[] {2, 7, 2, -1, 0}, 5), x(5, 3)));
  }

  /**
   * A scan (LoopResult) of three steps {@code h = tanh(h W_t + c)}: gradients of the initial carry,
   * every stacked W_t and the invariant c from the reversed recomputing loop.
   */
  @Test
  void scanOfThreeSteps() {
    GradCheck.check(
        "scan",
        (g, p) ->
            Scan.apply(
                g,
                "steps",
                p.get(0),
                List.of(p.get(1)),
                List.of(p.get(2)),
                (b, h, xs, inv) -> b.tanh(b.add(b.matmul(h, xs.get(0)), inv.get(0)))),
        List.of(x(2, 4), x(3, 4, 4), x(2, 4)));
  }
}
