package dev.javelin.backend.cpu;

import static dev.javelin.backend.cpu.CpuCheck.matches;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op.BinaryKind;
import dev.javelin.backend.graph.Op.Direction;
import dev.javelin.backend.graph.Op.UnaryKind;
import dev.javelin.backend.testing.Tensors;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every primitive op on the cpu device against the reference device, on random shapes large enough
 * to span several blocks and both workers, in f32 and in bf16 (f64 and i32 where they apply).
 */
class CpuOpsTest {
  private final Random rng = new Random(7);

  /** The float types every op runs in: f32, and bf16 (each op rounded, see CpuCheck). */
  private static final List<DType> FLOATS = List.of(DType.F32, DType.BF16);

  private Tensor fl(DType t, double lo, double hi, int... dims) {
    return Tensors.uniform(rng, t, Shape.of(dims), lo, hi);
  }

  private Tensor f64(int... dims) {
    return Tensors.uniform(rng, DType.F64, Shape.of(dims), -1, 1);
  }

  @ParameterizedTest
  @EnumSource(UnaryKind.class)
  void unaryFloatTypes(UnaryKind kind) {
    boolean positive = kind == UnaryKind.LOG || kind == UnaryKind.SQRT || kind == UnaryKind.RSQRT;
    for (DType t : List.of(DType.F32, DType.BF16, DType.F64)) {
      GraphBuilder g = new GraphBuilder("unary_" + kind + "_" + t);
      Node x = g.parameter("x", t, Shape.of(37, 301));
      Tensor in = Tensors.uniform(rng, t, Shape.of(37, 301), positive ? 0.05 : -4, 4);
      matches(g.build(g.unary(kind, x)), in);
    }
  }

  @ParameterizedTest
  @EnumSource(BinaryKind.class)
  void binaryAllTypes(BinaryKind kind) {
    boolean positive = kind == BinaryKind.POW;
    for (DType t : List.of(DType.F32, DType.BF16, DType.F64)) {
      GraphBuilder g = new GraphBuilder("binary_" + kind + "_" + t);
      Node a = g.parameter("a", t, Shape.of(5000));
      Node b = g.parameter("b", t, Shape.of(5000));
      Tensor x = Tensors.uniform(rng, t, Shape.of(5000), positive ? 0.1 : -3, 3);
      Tensor y = Tensors.uniform(rng, t, Shape.of(5000), positive ? 0.1 : -3, 3);
      matches(g.build(g.binary(kind, a, b)), x, y);
    }
    GraphBuilder g = new GraphBuilder("binary_" + kind + "_i32");
    Node a = g.parameter("a", DType.I32, Shape.of(3000));
    Node b = g.parameter("b", DType.I32, Shape.of(3000));
    Tensor x = Tensors.convert(Tensors.uniform(rng, DType.F64, Shape.of(3000), -50, 50), DType.I32);
    Tensor y =
        kind == BinaryKind.POW
            ? Tensors.randomInts(rng, 4, 3000)
            : Tensors.convert(Tensors.uniform(rng, DType.F64, Shape.of(3000), -5, 5), DType.I32);
    matches(g.build(g.binary(kind, a, b)), x, y);
  }

  @Test
  void integerNegAbs() {
    GraphBuilder g = new GraphBuilder("int_unary");
    Node a = g.parameter("a", DType.I32, Shape.of(2000));
    Tensor x = Tensors.convert(Tensors.uniform(rng, DType.F64, Shape.of(2000), -99, 99), DType.I32);
    matches(g.build(g.neg(a), g.add(g.neg(a), a)), x);
  }

  @ParameterizedTest
  @EnumSource(Direction.class)
  void compareSelectConvert(Direction d) {
    for (DType t : FLOATS) {
      compareSelectConvert(d, t);
    }
  }

  private void compareSelectConvert(Direction d, DType t) {
    GraphBuilder g = new GraphBuilder("compare_" + d + "_" + t);
    Node a = g.parameter("a", t, Shape.of(40, 70));
    Node b = g.parameter("b", t, Shape.of(40, 70));
    Node ia = g.parameter("ia", DType.I32, Shape.of(40, 70));
    Node ib = g.parameter("ib", DType.I32, Shape.of(40, 70));
    Node p = g.compare(a, b, d);
    Node q = g.compare(ia, ib, d);
    Node mask = g.convert(p, t);
    Node mixed = g.select(q, a, b);
    Node both = g.compare(p, q, Direction.EQ);
    Node round = g.convert(g.convert(g.mul(a, g.full(a, 10)), DType.I32), t);
    Node selInt = g.select(p, ia, ib);
    matches(
        g.build(mask, mixed, both, round, selInt, p),
        fl(t, -1, 1, 40, 70),
        fl(t, -1, 1, 40, 70),
        Tensors.randomInts(rng, 3, 40, 70),
        Tensors.randomInts(rng, 3, 40, 70));
  }

  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"F32", "BF16"})
  void constantsAndIota(DType t) {
    GraphBuilder g = new GraphBuilder("leaves");
    Node x = g.parameter("x", t, Shape.of(30, 50));
    Node io0 = g.iota(t, Shape.of(30, 50), 0);
    Node io1 = g.iota(DType.I32, Shape.of(30, 50), 1);
    Node c = g.constant(2.5, t, Shape.of(30, 50));
    Node y = g.add(g.mul(x, c), g.add(io0, g.convert(io1, t)));
    Node ninf = g.constant(Double.NEGATIVE_INFINITY, t, Shape.of(7));
    matches(
        g.build(y, c, io1, ninf, g.constant(3, DType.I32, Shape.scalar())), fl(t, -1, 1, 30, 50));
  }

  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"F32", "BF16"})
  void broadcastsFuseWithTheirConsumer(DType t) {
    GraphBuilder g = new GraphBuilder("broadcasts");
    Shape s = Shape.of(6, 33, 70);
    Node x = g.parameter("x", t, s);
    Node bias = g.parameter("bias", t, Shape.of(70));
    Node rows = g.parameter("rows", t, Shape.of(6, 33));
    Node mid = g.parameter("mid", t, Shape.of(6, 1, 70));
    Node scalar = g.parameter("s", t, Shape.scalar());
    Node y = g.add(x, g.broadcastTo(bias, s));
    y = g.mul(y, g.broadcastInDim(rows, s, 0, 1));
    y = g.sub(y, g.broadcastInDim(mid, s, 0, 1, 2));
    y = g.div(y, g.broadcastTo(scalar, s));
    Node b2 = g.broadcastInDim(rows, Shape.of(6, 33, 2), 0, 1);
    matches(
        g.build(y, b2),
        fl(t, -1, 1, 6, 33, 70),
        fl(t, -1, 1, 70),
        fl(t, -1, 1, 6, 33),
        fl(t, -1, 1, 6, 1, 70),
        fl(t, 1, 2));
  }

  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"F32", "BF16"})
  void reshapeTransposeSlice(DType t) {
    GraphBuilder g = new GraphBuilder("layout");
    Node x = g.parameter("x", t, Shape.of(4, 9, 6, 8));
    Node tr = g.transpose(x, 2, 0, 3, 1);
    Node r = g.reshape(tr, 6, 4 * 8 * 9);
    Node sl = g.slice(x, new int[] {1, 2, 0, 1}, new int[] {4, 9, 6, 8}, new int[] {2, 3, 1, 2});
    Node tt = g.transpose(g.transpose(x, 1, 0, 2, 3), 3, 2, 1, 0);
    Node st = g.transpose(g.sliceAxis(x, 1, 3, 7), 1, 0, 2, 3);
    Node sum = g.add(g.exp(g.reshape(g.neg(x), 36, 48)), g.reshape(x, 36, 48));
    matches(g.build(r, sl, tt, st, sum, g.reshape(x, 4 * 9 * 6 * 8)), fl(t, -1, 1, 4, 9, 6, 8));
  }

  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"F32", "BF16"})
  void reductions(DType t) {
    GraphBuilder g = new GraphBuilder("reduce");
    Node x = g.parameter("x", t, Shape.of(5, 70, 33));
    Node sq = g.mul(x, x);
    matches(
        g.build(
            g.reduceSum(sq, 2),
            g.reduceMax(x, 2),
            g.reduceSum(x, 0, 1),
            g.reduceMax(x, 0),
            g.reduceSum(x, 1),
            g.reduceSum(g.exp(x), 0, 2),
            g.reduceMax(x, 0, 2),
            g.reduceSum(x, 0, 1, 2),
            g.reduceSum(g.transpose(x, 2, 1, 0), 1)),
        fl(t, -2, 2, 5, 70, 33));
    GraphBuilder h = new GraphBuilder("reduce_f64_i32");
    Node d = h.parameter("d", DType.F64, Shape.of(30, 40));
    Node i = h.parameter("i", DType.I32, Shape.of(30, 40));
    matches(
        h.build(h.reduceSum(d, 1), h.reduceMax(d, 0), h.reduceSum(i, 0), h.reduceMax(i, 1)),
        f64(30, 40),
        Tensors.randomInts(rng, 1000, 30, 40));
  }

  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"F32", "BF16"})
  void bigRowReduceSplitsAcrossBlocks(DType t) {
    GraphBuilder g = new GraphBuilder("long_rows");
    Node x = g.parameter("x", t, Shape.of(3, 100_000));
    matches(
        g.build(g.reduceSum(x, 1), g.reduceMax(g.neg(x), 1), g.reduceSum(x, 0)),
        fl(t, 0, 1, 3, 100_000));
  }

  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"F32", "BF16"})
  void concatenateAndDynamicSlices(DType t) {
    GraphBuilder g = new GraphBuilder("indexing");
    Node a = g.parameter("a", t, Shape.of(3, 4, 5));
    Node b = g.parameter("b", t, Shape.of(3, 2, 5));
    Node cache = g.parameter("cache", t, Shape.of(2, 3, 16, 4));
    Node upd = g.parameter("upd", t, Shape.of(2, 3, 1, 4));
    Node pos = g.parameter("pos", DType.I32, Shape.scalar());
    Node zero = g.constant(0, DType.I32, Shape.scalar());
    Node cat = g.concatenate(1, List.of(a, b, g.exp(a)));
    Node cat0 = g.concatenate(0, List.of(a, a));
    Node updated = g.dynamicUpdateSlice(cache, upd, List.of(zero, zero, pos, zero));
    Node window = g.dynamicSlice(updated, List.of(zero, zero, pos, zero), 2, 3, 4, 4);
    Node chained = g.dynamicUpdateSlice(g.neg(cache), upd, List.of(zero, pos, pos, zero));
    // A constant operand is filled in place rather than stored and copied.
    Node fromZeros =
        g.dynamicUpdateSlice(
            g.constant(0.5, t, Shape.of(2, 3, 16, 4)), upd, List.of(zero, pos, pos, zero));
    Program3 p = new Program3(g, List.of(cat, cat0, updated, window, chained, fromZeros));
    for (int at : new int[] {0, 5, 15, 40, -3}) {
      matches(
          p.g.build(p.outs),
          CpuCheck.F32_TOL,
          List.of(
              fl(t, -1, 1, 3, 4, 5),
              fl(t, -1, 1, 3, 2, 5),
              fl(t, -1, 1, 2, 3, 16, 4),
              fl(t, -1, 1, 2, 3, 1, 4),
              Tensors.i32Scalar(at)));
    }
  }

  private record Program3(GraphBuilder g, List<Node> outs) {}

  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"F32", "BF16"})
  void gatherAndScatterAdd(DType t) {
    GraphBuilder g = new GraphBuilder("embed");
    Node table = g.parameter("table", t, Shape.of(50, 16));
    Node ids = g.parameter("ids", DType.I32, Shape.of(4, 9));
    Node rows = g.gather(table, ids);
    Node back = g.scatterAdd(ids, g.mul(rows, rows), 50);
    Tensor.I32 id = Tensors.randomInts(rng, 50, 4, 9);
    id.data()[3] = -4;
    id.data()[7] = 77;
    matches(g.build(rows, back), fl(t, -1, 1, 50, 16), id);
  }

  /**
   * Per-row slot writes (the decode step's KV cache update), once from an argument (copied) and
   * once from a value that dies at the write (updated in place), with rows out of range skipped.
   */
  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"F32", "BF16"})
  void updateSlots(DType t) {
    GraphBuilder g = new GraphBuilder("slots_" + t);
    Node cache = g.parameter("cache", t, Shape.of(4, 2, 6, 3));
    Node upd = g.parameter("upd", t, Shape.of(4, 2, 1, 3));
    Node at = g.parameter("at", DType.I32, Shape.of(4));
    Node once = g.updateSlots(cache, upd, at, 2);
    Node doubled = g.add(cache, cache);
    Node inPlace = g.updateSlots(doubled, g.mul(upd, upd), at, 2);
    Node again = g.updateSlots(inPlace, upd, g.add(at, g.constant(1, DType.I32, Shape.of(4))), 2);
    Tensor.I32 rows = Tensor.ofInts(new int[] {5, 0, 6, -1}, 4);
    matches(
        g.build(once, g.reduceSum(again, 2), again),
        fl(t, -1, 1, 4, 2, 6, 3),
        fl(t, -1, 1, 4, 2, 1, 3),
        rows);
  }

  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"F32", "BF16"})
  void matrixProducts(DType t) {
    GraphBuilder g = new GraphBuilder("dots");
    Node x = g.parameter("x", t, Shape.of(3, 17, 40));
    Node w = g.parameter("w", t, Shape.of(40, 23));
    Node wt = g.parameter("wt", t, Shape.of(23, 40));
    Node q = g.parameter("q", t, Shape.of(2, 4, 17, 8));
    Node k = g.parameter("k", t, Shape.of(2, 4, 19, 8));
    Node y1 = g.matmul(x, w);
    Node y2 = g.matmulTransposed(x, wt);
    Node scores =
        g.dotGeneral(q, k, new int[] {0, 1}, new int[] {0, 1}, new int[] {3}, new int[] {3});
    // Heads laid out (B, T, H, D): the batch dims are not leading, so the operands get packed.
    Node qt = g.transpose(q, 0, 2, 1, 3);
    Node kt = g.transpose(k, 0, 2, 1, 3);
    Node scores2 =
        g.dotGeneral(qt, kt, new int[] {0, 2}, new int[] {0, 2}, new int[] {3}, new int[] {3});
    // dW = x^T dy: contraction over the leading dims of both.
    Node dw = g.dotGeneral(x, y1, new int[0], new int[0], new int[] {0, 1}, new int[] {0, 1});
    Node outer = g.dotGeneral(w, wt, new int[0], new int[0], new int[0], new int[0]);
    Node vecs =
        g.dotGeneral(
            g.reshape(w, 40 * 23),
            g.reshape(wt, 23 * 40),
            new int[0],
            new int[0],
            new int[] {0},
            new int[] {0});
    Node bcast =
        g.matmul(
            g.broadcastTo(g.sliceAxis(w, 1, 0, 17), Shape.of(3, 40, 17)),
            g.broadcastTo(g.constant(2, t, Shape.scalar()), Shape.of(17, 5)));
    matches(
        g.build(y1, y2, scores, scores2, dw, outer, vecs, bcast),
        fl(t, -1, 1, 3, 17, 40),
        fl(t, -1, 1, 40, 23),
        fl(t, -1, 1, 23, 40),
        fl(t, -1, 1, 2, 4, 17, 8),
        fl(t, -1, 1, 2, 4, 19, 8));
  }

  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"F32", "BF16"})
  void productsJustBelowAndAboveTheSmallGemmLimitMatch(DType t) {
    // 2·16·32·32 = SmallGemm.MAX_FLOPS (Java loops); k = 33 goes to OpenBLAS; both layouts of B
    GraphBuilder g = new GraphBuilder("small_vs_blas");
    Node a = g.parameter("a", t, Shape.of(4, 16, 32));
    Node b = g.parameter("b", t, Shape.of(4, 32, 32));
    Node a2 = g.parameter("a2", t, Shape.of(4, 16, 33));
    Node b2 = g.parameter("b2", t, Shape.of(4, 32, 33));
    int[] batch = {0};
    matches(
        g.build(
            g.dotGeneral(a, b, batch, batch, new int[] {2}, new int[] {1}),
            g.dotGeneral(a, b, batch, batch, new int[] {2}, new int[] {2}),
            g.dotGeneral(b, a, batch, batch, new int[] {1}, new int[] {2}),
            g.dotGeneral(a2, b2, batch, batch, new int[] {2}, new int[] {2})),
        fl(t, -1, 1, 4, 16, 32),
        fl(t, -1, 1, 4, 32, 32),
        fl(t, -1, 1, 4, 16, 33),
        fl(t, -1, 1, 4, 32, 33));
  }

  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"F32", "BF16"})
  void largeProductSplitsAcrossWorkers(DType t) {
    GraphBuilder g = new GraphBuilder("big_dot");
    Node a = g.parameter("a", t, Shape.of(300, 256));
    Node b = g.parameter("b", t, Shape.of(256, 190));
    Node c = g.parameter("c", t, Shape.of(7, 256));
    matches(
        g.build(g.matmul(a, b), g.matmul(c, b)),
        fl(t, -1, 1, 300, 256),
        fl(t, -1, 1, 256, 190),
        fl(t, -1, 1, 7, 256));
  }

  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"F32", "BF16"})
  void emptyShapes(DType t) {
    GraphBuilder g = new GraphBuilder("empty");
    Node x = g.parameter("x", t, Shape.of(0, 5));
    Node a = g.parameter("a", t, Shape.of(3, 0));
    Node b = g.parameter("b", t, Shape.of(0, 4));
    matches(
        g.build(
            g.exp(x),
            g.reduceSum(x, 0),
            g.reduceMax(x, 0),
            g.matmul(a, b),
            g.matmul(b, g.transpose(b, 1, 0))),
        fl(t, -1, 1, 0, 5),
        fl(t, -1, 1, 3, 0),
        fl(t, -1, 1, 0, 4));
  }

  /**
   * bf16 operands with an f32 result (the mixed-precision matmul): sgemm over the bf16 values, so
   * f32 accumulation, against the reference's double sums at the f32 tolerance; on both gemm paths.
   */
  @Test
  void bf16ProductsWithAnF32Result() {
    GraphBuilder g = new GraphBuilder("dot_bf16_f32");
    Node a = g.parameter("a", DType.BF16, Shape.of(300, 256));
    Node b = g.parameter("b", DType.BF16, Shape.of(190, 256));
    Node q = g.parameter("q", DType.BF16, Shape.of(2, 4, 17, 8));
    int[] none = new int[0];
    int[] hb = {0, 1};
    Node big = g.dotGeneral(a, b, none, none, new int[] {1}, new int[] {1}, DType.F32);
    Node small = g.dotGeneral(q, q, hb, hb, new int[] {3}, new int[] {3}, DType.F32);
    List<Tensor> out =
        matches(
            g.build(big, small, g.convert(big, DType.BF16)),
            fl(DType.BF16, -1, 1, 300, 256),
            fl(DType.BF16, -1, 1, 190, 256),
            fl(DType.BF16, -1, 1, 2, 4, 17, 8));
    org.junit.jupiter.api.Assertions.assertEquals(DType.F32, out.get(0).dtype());
  }

  @Test
  void f64Products() {
    GraphBuilder g = new GraphBuilder("dot_f64");
    Node a = g.parameter("a", DType.F64, Shape.of(2, 5, 7));
    Node b = g.parameter("b", DType.F64, Shape.of(2, 9, 7));
    Node c = g.dotGeneral(a, b, new int[] {0}, new int[] {0}, new int[] {2}, new int[] {2});
    matches(
        g.build(c, g.matmulTransposed(a, g.reshape(b, 18, 7))),
        1e-12,
        List.of(f64(2, 5, 7), f64(2, 9, 7)));
  }
}
