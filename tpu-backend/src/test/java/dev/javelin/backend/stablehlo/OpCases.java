package dev.javelin.backend.stablehlo;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Autodiff;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op.BinaryKind;
import dev.javelin.backend.graph.Op.Direction;
import dev.javelin.backend.graph.Op.UnaryKind;
import dev.javelin.backend.graph.Scan;
import dev.javelin.backend.stablehlo.XlaCpuScript.Case;
import dev.javelin.backend.testing.Tensors;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * One small program per primitive op (and per interesting variant: element types, empty batch dims,
 * out-of-range dynamic starts and ids, which StableHLO clamps or drops), with random inputs.
 */
final class OpCases {
  private final Random rng = new Random(20261129);
  private final List<Case> cases = new ArrayList<>();

  static List<Case> all() {
    OpCases c = new OpCases();
    c.leaves();
    c.elementwise();
    c.comparisonsAndConversions();
    c.layout();
    c.products();
    c.indexing();
    c.edges();
    c.loops();
    return List.copyOf(c.cases);
  }

  private void leaves() {
    GraphBuilder g = new GraphBuilder("constants");
    Node x = g.parameter("x", DType.F32, Shape.of(2, 3));
    Node inf = g.constant(Double.NEGATIVE_INFINITY, DType.F32, Shape.of(2, 3));
    Node small = g.constant(1e-6, DType.F32, Shape.of(2, 3));
    Node ints = g.constant(-7, DType.I32, Shape.of(4));
    Node f64 = g.constant(Math.PI, DType.F64, Shape.scalar());
    Node yes = g.constant(1, DType.PRED, Shape.of(2));
    add(g, List.of(g.add(g.max(x, inf), small), ints, f64, yes), f32(2, 3));

    g = new GraphBuilder("iota");
    add(g, List.of(g.iota(DType.I32, Shape.of(3, 4), 1), g.iota(DType.F32, Shape.of(3, 4), 0)));
  }

  private void elementwise() {
    for (UnaryKind kind : UnaryKind.values()) {
      boolean positive = kind == UnaryKind.LOG || kind == UnaryKind.RSQRT || kind == UnaryKind.SQRT;
      GraphBuilder g = new GraphBuilder("unary_" + kind.name().toLowerCase(Locale.ROOT));
      Node x = g.parameter("x", DType.F32, Shape.of(3, 5));
      add(g, List.of(g.unary(kind, x)), uniform(DType.F32, positive ? 0.1 : -3, 3, 3, 5));
    }
    for (BinaryKind kind : BinaryKind.values()) {
      boolean positive = kind == BinaryKind.POW || kind == BinaryKind.DIV;
      GraphBuilder g = new GraphBuilder("binary_" + kind.name().toLowerCase(Locale.ROOT));
      Node a = g.parameter("a", DType.F32, Shape.of(4, 3));
      Node b = g.parameter("b", DType.F32, Shape.of(4, 3));
      add(
          g,
          List.of(g.binary(kind, a, b)),
          uniform(DType.F32, positive ? 0.5 : -2, 2, 4, 3),
          uniform(DType.F32, positive ? 0.5 : -2, 2, 4, 3));
    }
    GraphBuilder g = new GraphBuilder("elementwise_f64_i32");
    Node a = g.parameter("a", DType.F64, Shape.of(5));
    Node i = g.parameter("i", DType.I32, Shape.of(5));
    add(
        g,
        List.of(g.exp(g.mul(a, a)), g.add(g.neg(i), g.mul(i, i)), g.max(i, g.neg(i))),
        uniform(DType.F64, -1, 1, 5),
        Tensors.randomInts(rng, 9, 5));
  }

  private void comparisonsAndConversions() {
    for (Direction d : Direction.values()) {
      GraphBuilder g = new GraphBuilder("compare_" + d.name().toLowerCase(Locale.ROOT));
      Node a = g.parameter("a", DType.F32, Shape.of(6));
      Node b = g.parameter("b", DType.F32, Shape.of(6));
      Node i = g.parameter("i", DType.I32, Shape.of(6));
      Node j = g.parameter("j", DType.I32, Shape.of(6));
      Tensor at = f32(6);
      float[] bt = ((Tensor.F32) f32(6)).data();
      bt[0] = ((Tensor.F32) at).data()[0]; // one tie, to tell LT from LE
      add(
          g,
          List.of(g.compare(a, b, d), g.compare(i, j, d)),
          at,
          Tensor.of(bt, 6),
          Tensor.ofInts(new int[] {1, 2, 3, 4, 5, 6}, 6),
          Tensor.ofInts(new int[] {6, 2, 1, 4, 7, 3}, 6));
    }
    GraphBuilder g = new GraphBuilder("select_convert");
    Node a = g.parameter("a", DType.F32, Shape.of(2, 4));
    Node b = g.parameter("b", DType.F32, Shape.of(2, 4));
    Node p = g.compare(a, b, Direction.GT);
    Node scaled = g.mul(a, g.full(a, 3));
    add(
        g,
        List.of(
            g.select(p, a, b),
            g.convert(p, DType.F32),
            g.convert(scaled, DType.I32),
            g.convert(g.convert(scaled, DType.I32), DType.F32),
            g.convert(a, DType.F64),
            g.convert(g.convert(p, DType.F32), DType.PRED)),
        f32(2, 4),
        f32(2, 4));
  }

  private void layout() {
    GraphBuilder g = new GraphBuilder("broadcast_reshape_transpose");
    Node x = g.parameter("x", DType.F32, Shape.of(3, 1, 4));
    Node v = g.parameter("v", DType.F32, Shape.of(4));
    Node bx = g.broadcastInDim(x, Shape.of(2, 3, 5, 4), 1, 2, 3);
    Node bv = g.broadcastTo(v, Shape.of(3, 4));
    add(
        g,
        List.of(
            bx,
            bv,
            g.reshape(x, 2, 6),
            g.transpose(bx, 3, 0, 2, 1),
            g.broadcastTo(g.scalar(2.5), Shape.of(2, 2))),
        f32(3, 1, 4),
        f32(4));

    g = new GraphBuilder("reduce");
    x = g.parameter("x", DType.F32, Shape.of(3, 4, 5));
    Node i = g.parameter("i", DType.I32, Shape.of(3, 4));
    Node d = g.parameter("d", DType.F64, Shape.of(7));
    add(
        g,
        List.of(
            g.reduceSum(x, 1),
            g.reduceMax(x, 0, 2),
            g.reduceSum(x, 0, 1, 2),
            g.reduceMax(i, 1),
            g.reduceSum(i, 0),
            g.reduceSum(d, 0)),
        f32(3, 4, 5),
        Tensors.randomInts(rng, 100, 3, 4),
        uniform(DType.F64, -1, 1, 7));

    g = new GraphBuilder("concatenate");
    Node a = g.parameter("a", DType.F32, Shape.of(2, 3));
    Node b = g.parameter("b", DType.F32, Shape.of(2, 1));
    Node c = g.parameter("c", DType.F32, Shape.of(2, 2));
    add(
        g,
        List.of(g.concatenate(1, List.of(a, b, c)), g.concatenate(0, List.of(a, a))),
        f32(2, 3),
        f32(2, 1),
        f32(2, 2));
  }

  private void products() {
    GraphBuilder g = new GraphBuilder("dot_general");
    Node x = g.parameter("x", DType.F32, Shape.of(2, 3, 8));
    Node w = g.parameter("w", DType.F32, Shape.of(8, 5));
    Node wt = g.parameter("wt", DType.F32, Shape.of(5, 8));
    Node q = g.parameter("q", DType.F32, Shape.of(2, 4, 3, 6)); // (B, H, T, D)
    Node k = g.parameter("k", DType.F32, Shape.of(2, 4, 7, 6)); // (B, H, S, D)
    Node u = g.parameter("u", DType.F32, Shape.of(3));
    int[] batch = {0, 1};
    add(
        g,
        List.of(
            g.matmul(x, w),
            g.matmulTransposed(x, wt),
            g.dotGeneral(q, k, batch, batch, new int[] {3}, new int[] {3}), // (B, H, T, S)
            g.dotGeneral(u, u, new int[0], new int[0], new int[0], new int[0]), // outer
            g.dotGeneral(x, x, new int[] {0}, new int[] {0}, new int[] {1, 2}, new int[] {1, 2})),
        f32(2, 3, 8),
        f32(8, 5),
        f32(5, 8),
        f32(2, 4, 3, 6),
        f32(2, 4, 7, 6),
        f32(3));
  }

  private void indexing() {
    GraphBuilder g = new GraphBuilder("slice");
    Node x = g.parameter("x", DType.F32, Shape.of(5, 6));
    add(
        g,
        List.of(
            g.slice(x, new int[] {1, 0}, new int[] {5, 6}, new int[] {2, 3}),
            g.sliceAxis(x, 1, 2, 4)),
        f32(5, 6));

    g = new GraphBuilder("dynamic_slices");
    Node cache = g.parameter("cache", DType.F32, Shape.of(2, 6, 3)); // (B, maxLen, D)
    Node upd = g.parameter("upd", DType.F32, Shape.of(2, 1, 3));
    Node pos = g.parameter("pos", DType.I32, Shape.scalar());
    Node far = g.parameter("far", DType.I32, Shape.scalar());
    Node neg = g.parameter("neg", DType.I32, Shape.scalar());
    Node zero = g.constant(0, DType.I32, Shape.scalar());
    add(
        g,
        List.of(
            g.dynamicUpdateSlice(cache, upd, List.of(zero, pos, zero)),
            g.dynamicUpdateSlice(cache, upd, List.of(zero, far, neg)),
            g.dynamicSlice(cache, List.of(zero, pos, zero), 2, 2, 3),
            g.dynamicSlice(cache, List.of(neg, far, zero), 1, 3, 2)),
        f32(2, 6, 3),
        f32(2, 1, 3),
        Tensors.i32Scalar(4),
        Tensors.i32Scalar(9),
        Tensors.i32Scalar(-2));

    g = new GraphBuilder("update_slots");
    Node slots = g.parameter("cache", DType.F32, Shape.of(3, 2, 5, 4));
    Node tok = g.parameter("token", DType.F32, Shape.of(3, 2, 1, 4));
    Node where = g.parameter("at", DType.I32, Shape.of(3));
    add(
        g,
        List.of(g.updateSlots(slots, tok, where, 2)),
        f32(3, 2, 5, 4),
        f32(3, 2, 1, 4),
        Tensor.ofInts(new int[] {4, 5, 0}, 3));

    g = new GraphBuilder("gather_scatter");
    Node table = g.parameter("table", DType.F32, Shape.of(7, 4));
    Node ids = g.parameter("ids", DType.I32, Shape.of(2, 3));
    Node vec = g.parameter("vec", DType.F32, Shape.of(7));
    Node upd2 = g.parameter("updates", DType.F32, Shape.of(2, 3, 4));
    Tensor.I32 idValues = Tensor.ofInts(new int[] {3, 0, 6, 3, -1, 9}, 2, 3);
    Node one = g.parameter("one", DType.I32, Shape.scalar());
    Node row = g.parameter("row", DType.F32, Shape.of(4));
    add(
        g,
        List.of(
            g.gather(table, ids),
            g.gather(vec, ids),
            g.scatterAdd(ids, upd2, 7),
            g.gather(table, one), // a scalar id: index_vector_dim 0
            g.scatterAdd(one, row, 7)),
        f32(7, 4),
        idValues,
        f32(7),
        f32(2, 3, 4),
        Tensors.i32Scalar(2),
        f32(4));
  }

  /** Degenerate but legal forms: empty reduce dims, one-part concatenate, i1 and i32 math. */
  private void edges() {
    GraphBuilder g = new GraphBuilder("edges");
    Node x = g.parameter("x", DType.F32, Shape.of(2, 3));
    Node i = g.parameter("i", DType.I32, Shape.of(4));
    Node j = g.parameter("j", DType.I32, Shape.of(4));
    Node p = g.compare(x, g.full(x, 0), Direction.GT);
    Node q = g.compare(x, g.full(x, 0.5), Direction.LT);
    add(
        g,
        List.of(
            g.reduceSum(x),
            g.concatenate(0, List.of(x)),
            g.compare(p, q, Direction.NE),
            g.div(i, j),
            g.iota(DType.F64, Shape.of(3), 0)),
        f32(2, 3),
        Tensor.ofInts(new int[] {7, -7, 9, 0}, 4),
        Tensor.ofInts(new int[] {2, 2, -4, 3}, 4));
  }

  /**
   * A scan of three steps and its gradient: a forward {@code while} and a reversed one that
   * recomputes each step and writes per-step weight gradients with dynamic_update_slice.
   */
  private void loops() {
    GraphBuilder g = new GraphBuilder("scan");
    Node h = g.parameter("h", DType.F32, Shape.of(2, 4));
    Node w = g.parameter("w", DType.F32, Shape.of(3, 4, 4));
    Node c = g.parameter("c", DType.F32, Shape.of(2, 4));
    Node out =
        Scan.apply(
            g,
            "steps",
            h,
            List.of(w),
            List.of(c),
            (b, carry, xs, inv) -> b.tanh(b.add(b.matmul(carry, xs.get(0)), inv.get(0))));
    Node loss = g.reduceSum(g.mul(out, out), 0, 1);
    List<Node> outs = new ArrayList<>(List.of(out));
    outs.addAll(Autodiff.gradient(g, loss, List.of(h, w, c)));
    add(g, outs, f32(2, 4), f32(3, 4, 4), f32(2, 4));
  }

  // ------------------------------------------------------------ helpers

  private void add(GraphBuilder g, List<Node> outputs, Tensor... inputs) {
    cases.add(new Case("op_" + g.name(), g.build(outputs), List.of(inputs)));
  }

  private Tensor f32(int... dims) {
    return Tensors.random(rng, DType.F32, dims);
  }

  private Tensor uniform(DType dtype, double lo, double hi, int... dims) {
    return Tensors.uniform(rng, dtype, Shape.of(dims), lo, hi);
  }
}
