package dev.javelin.backend.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.Bf16;
import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op.Direction;
import dev.javelin.backend.testing.Tensors;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hand-computed expectations for every reference kernel. */
class ReferenceDeviceTest {

  private static double[] run1(GraphBuilder g, Node out, Tensor... args) {
    return Tensors.toDoubles(ReferenceDevice.evaluate(g.build(out), List.of(args)).get(0));
  }

  private static Tensor f32(float[] data, int... dims) {
    return Tensor.of(data, dims);
  }

  @Test
  void opensThroughServiceLoader() {
    try (Device d = Devices.open("ref")) {
      assertEquals("ref", d.name());
    }
  }

  @Test
  void elementwiseMathRoundsToF32() {
    GraphBuilder g = new GraphBuilder("ew");
    Node x = g.parameter("x", DType.F32, Shape.of(3));
    Node y = g.parameter("y", DType.F32, Shape.of(3));
    Node out = g.add(g.mul(g.exp(x), y), g.div(y, g.full(y, 3)));
    double[] r = run1(g, out, f32(new float[] {0, 1, -1}, 3), f32(new float[] {1, 2, 3}, 3));
    for (int i = 0; i < 3; i++) {
      double xv = new double[] {0, 1, -1}[i];
      float yf = i + 1;
      float ex = (float) Math.exp(xv);
      float expect = ex * yf + yf / 3f; // each op rounded to f32, as the device must
      assertEquals(expect, r[i], 0.0);
    }
  }

  @Test
  void bf16OpsRoundOnceEach() {
    GraphBuilder g = new GraphBuilder("ew_bf16");
    Node x = g.parameter("x", DType.BF16, Shape.of(3));
    Node y = g.parameter("y", DType.BF16, Shape.of(3));
    Node out = g.add(g.mul(g.exp(x), y), g.div(y, g.full(y, 3)));
    Tensor xs = new Tensor.BF16(Shape.of(3), new float[] {0, 1, -1});
    Tensor ys = new Tensor.BF16(Shape.of(3), new float[] {1, 2, 3});
    double[] r = run1(g, out, xs, ys);
    for (int i = 0; i < 3; i++) {
      double ex = Bf16.round(Math.exp(new double[] {0, 1, -1}[i]));
      double yv = i + 1;
      double expect = Bf16.round(Bf16.round(ex * yv) + (double) Bf16.round(yv / 3));
      assertEquals(expect, r[i], 0.0);
    }
    // 1 + 2^-8 is a bf16 tie and goes to even; converting f32 to bf16 rounds to nearest even.
    GraphBuilder h = new GraphBuilder("convert_bf16");
    Node f = h.parameter("f", DType.F32, Shape.of(3));
    float[] in = {1 + 0x1p-8f, 1 + 0x1.8p-8f, Float.NaN};
    double[] c = run1(h, h.convert(f, DType.BF16), f32(in, 3));
    assertEquals(1.0, c[0], 0.0);
    assertEquals(1 + 0x1p-7, c[1], 0.0);
    assertTrue(Double.isNaN(c[2]));
  }

  @Test
  void bf16ProductsAccumulateInTheResultType() {
    // 2 + 256 * 2^-8: a bf16 accumulator would stay at 2 (each term is under half an ulp of 2);
    // the reference sums exactly and rounds once, to either result type.
    int k = 257;
    float[] a = new float[k];
    float[] b = new float[k];
    java.util.Arrays.fill(a, 0x1p-8f);
    java.util.Arrays.fill(b, 1f);
    a[0] = 2;
    GraphBuilder g = new GraphBuilder("dot_bf16");
    Node x = g.parameter("x", DType.BF16, Shape.of(k));
    Node w = g.parameter("w", DType.BF16, Shape.of(k));
    int[] none = new int[0];
    int[] c = {0};
    Node wide = g.dotGeneral(x, w, none, none, c, c, DType.F32);
    Node narrow = g.dotGeneral(x, w, none, none, c, c);
    List<Tensor> out =
        ReferenceDevice.evaluate(
            g.build(wide, narrow),
            List.of(new Tensor.BF16(Shape.of(k), a), new Tensor.BF16(Shape.of(k), b)));
    assertEquals(DType.F32, out.get(0).dtype());
    assertEquals(DType.BF16, out.get(1).dtype());
    assertEquals(3.0, out.get(0).getDouble(0), 0.0);
    assertEquals(3.0, out.get(1).getDouble(0), 0.0); // the exact sum, rounded once
    Node f = g.parameter("f", DType.F32, Shape.of(k));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> g.dotGeneral(f, f, none, none, c, c, DType.BF16));
    assertTrue(
        e.getMessage().contains("only bf16 operands may give an f32 result"), e.getMessage());
  }

  @Test
  void integerArithmeticTruncatesAndWraps() {
    GraphBuilder g = new GraphBuilder("int");
    Node a = g.parameter("a", DType.I32, Shape.of(3));
    Node b = g.parameter("b", DType.I32, Shape.of(3));
    Node q = g.div(a, b);
    Node p = g.mul(a, a);
    Node out = g.concatenate(0, List.of(q, p));
    double[] r =
        run1(
            g,
            out,
            Tensor.ofInts(new int[] {7, -7, 65536}, 3),
            Tensor.ofInts(new int[] {2, 2, 0}, 3));
    assertArrayEquals(new double[] {3, -3, -1, 49, 49, 0}, r);
  }

  @Test
  void compareSelectConvert() {
    GraphBuilder g = new GraphBuilder("cmp");
    Node x = g.parameter("x", DType.F32, Shape.of(4));
    Node zero = g.full(x, 0);
    Node pos = g.compare(x, zero, Direction.GT);
    Node relu = g.select(pos, x, zero);
    Node asInt = g.convert(g.add(relu, g.convert(pos, DType.F32)), DType.I32);
    double[] r = run1(g, asInt, f32(new float[] {-2.5f, 0, 1.7f, 3.2f}, 4));
    assertArrayEquals(new double[] {0, 0, 2, 4}, r);
  }

  @Test
  void iotaBroadcastTransposeReshape() {
    GraphBuilder g = new GraphBuilder("layout");
    Node i = g.iota(DType.F32, Shape.of(2, 3), 1); // [[0,1,2],[0,1,2]]
    Node col = g.parameter("c", DType.F32, Shape.of(2));
    Node b = g.broadcastInDim(col, Shape.of(2, 3), 0); // [[c0,c0,c0],[c1,c1,c1]]
    Node s = g.transpose(g.add(i, b), 1, 0); // (3, 2)
    Node out = g.reshape(s, 6);
    double[] r = run1(g, out, f32(new float[] {10, 20}, 2));
    assertArrayEquals(new double[] {10, 20, 11, 21, 12, 22}, r);
  }

  @Test
  void reduceSumAndMax() {
    GraphBuilder g = new GraphBuilder("reduce");
    Node x = g.parameter("x", DType.F32, Shape.of(2, 3));
    Node out = g.concatenate(0, List.of(g.reduceSum(x, 1), g.reduceMax(x, 0)));
    double[] r = run1(g, out, f32(new float[] {1, 5, 2, -1, -2, 7}, 2, 3));
    assertArrayEquals(new double[] {8, 4, 1, 5, 7}, r);
  }

  @Test
  void dotGeneralWithBatchDims() {
    GraphBuilder g = new GraphBuilder("dot");
    Node a = g.parameter("a", DType.F32, Shape.of(2, 2, 3)); // (B, M, K)
    Node b = g.parameter("b", DType.F32, Shape.of(2, 3, 1)); // (B, K, N)
    Node out =
        g.dotGeneral(a, b, new int[] {0}, new int[] {0}, new int[] {2}, new int[] {1}); // (B,M,N)
    float[] av = {1, 2, 3, 4, 5, 6, 1, 0, 0, 0, 1, 0};
    float[] bv = {1, 1, 1, 2, 3, 4};
    double[] r = run1(g, out, f32(av, 2, 2, 3), f32(bv, 2, 3, 1));
    assertArrayEquals(new double[] {6, 15, 2, 3}, r);
  }

  @Test
  void matmulTransposedMatchesLinearLayout() {
    GraphBuilder g = new GraphBuilder("linear");
    Node x = g.parameter("x", DType.F64, Shape.of(1, 2));
    Node w = g.parameter("w", DType.F64, Shape.of(3, 2)); // (out, in)
    double[] r =
        run1(
            g,
            g.matmulTransposed(x, w),
            Tensors.f64(new double[] {1, 2}, 1, 2),
            Tensors.f64(new double[] {1, 0, 0, 1, 1, 1}, 3, 2));
    assertArrayEquals(new double[] {1, 2, 3}, r);
  }

  @Test
  void sliceAndConcatenate() {
    GraphBuilder g = new GraphBuilder("slice");
    Node x = g.iota(DType.I32, Shape.of(7), 0);
    Node strided = g.slice(x, new int[] {1}, new int[] {7}, new int[] {2}); // 1,3,5
    Node head = g.sliceAxis(x, 0, 0, 2); // 0,1
    double[] r = run1(g, g.concatenate(0, List.of(strided, head)));
    assertArrayEquals(new double[] {1, 3, 5, 0, 1}, r);
  }

  @Test
  void dynamicSlicesClampStarts() {
    GraphBuilder g = new GraphBuilder("dyn");
    Node x = g.iota(DType.F32, Shape.of(2, 4), 1);
    Node row = g.parameter("row", DType.I32, Shape.scalar());
    Node col = g.parameter("col", DType.I32, Shape.scalar());
    Node upd = g.constant(9, DType.F32, Shape.of(1, 2));
    Node written = g.dynamicUpdateSlice(x, upd, List.of(row, col));
    Node read = g.dynamicSlice(written, List.of(row, col), 1, 3);
    Node out = g.concatenate(0, List.of(g.reshape(written, 8), g.reshape(read, 3)));
    // col 3 clamps to 2 for the update (width 2) and to 1 for the read (width 3).
    double[] r = run1(g, out, Tensors.i32Scalar(5), Tensors.i32Scalar(3));
    assertArrayEquals(new double[] {0, 1, 2, 3, 0, 1, 9, 9, 1, 9, 9}, r);
  }

  @Test
  void gatherClampsAndScatterAddSkipsOutOfRange() {
    GraphBuilder g = new GraphBuilder("embed");
    Node table = g.parameter("t", DType.F32, Shape.of(3, 2));
    Node ids = g.parameter("ids", DType.I32, Shape.of(4));
    Node rows = g.gather(table, ids); // (4, 2)
    Node back = g.scatterAdd(ids, rows, 3); // (3, 2)
    Node out = g.concatenate(0, List.of(g.reshape(rows, 8), g.reshape(back, 6)));
    double[] r =
        run1(
            g,
            out,
            f32(new float[] {1, 2, 3, 4, 5, 6}, 3, 2),
            Tensor.ofInts(new int[] {2, 0, 7, 2}, 4));
    assertArrayEquals(new double[] {5, 6, 1, 2, 5, 6, 5, 6, 1, 2, 0, 0, 10, 12}, r);
  }

  @Test
  void rejectsWrongArguments() {
    GraphBuilder g = new GraphBuilder("checked");
    Node x = g.parameter("x", DType.F32, Shape.of(2));
    var exe = new ReferenceDevice().compile(g.build(g.neg(x)));
    var dev = new ReferenceDevice();
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> exe.run(List.of(dev.upload(Tensor.of(new float[3], 3)))));
    assertTrue(e.getMessage().contains("'x'"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> exe.run(List.of()));
  }
}
