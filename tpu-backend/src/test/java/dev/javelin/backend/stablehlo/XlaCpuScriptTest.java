package dev.javelin.backend.stablehlo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.stablehlo.XlaCpuScript.Case;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java half of the exchange with {@code tools/stablehlo_run.py}. */
class XlaCpuScriptTest {

  @Test
  void failsWithTheSetupCommandWhenTheVirtualenvIsMissing(@TempDir Path root) {
    GraphBuilder g = new GraphBuilder("id");
    Node x = g.parameter("x", DType.F32, Shape.of(2));
    Case c = new Case("id", g.build(g.neg(x)), List.of(Tensor.of(new float[] {1, 2}, 2)));
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class, () -> new XlaCpuScript(root).run(List.of(c), root));
    assertTrue(e.getMessage().contains(XlaCpuScript.SETUP), e.getMessage());
  }

  @Test
  void tensorsRoundTripThroughLittleEndianBytes() {
    Tensor.F32 f = Tensor.of(new float[] {1.5f, -0f, Float.NaN, 3e38f}, 2, 2);
    Tensor.F64 d = new Tensor.F64(Shape.of(2), new double[] {Math.PI, -1e-300});
    Tensor.I32 i = Tensor.ofInts(new int[] {Integer.MIN_VALUE, 7, -1}, 3);
    Tensor.Pred p = new Tensor.Pred(Shape.scalar(), new boolean[] {true});
    assertArrayEquals(
        new byte[] {0, 0, (byte) 0xC0, 0x3F}, Arrays.copyOf(XlaCpuScript.toBytes(f), 4));
    for (Tensor t : List.of(f, d, i, p)) {
      Tensor back = XlaCpuScript.fromBytes(XlaCpuScript.toBytes(t), t.dtype(), t.shape());
      assertEquals(t.describe(), back.describe());
      for (int k = 0; k < t.shape().intSize(); k++) {
        assertEquals(
            Double.doubleToLongBits(t.getDouble(k)), Double.doubleToLongBits(back.getDouble(k)));
      }
    }
    assertThrows(
        IllegalStateException.class,
        () -> XlaCpuScript.fromBytes(new byte[3], DType.F32, Shape.of(1)));
  }

  @Test
  void refusesCaseNamesThatAreNotPlainFileNames() {
    GraphBuilder g = new GraphBuilder("p");
    Node x = g.parameter("x", DType.F32, Shape.of(1));
    assertThrows(
        IllegalArgumentException.class,
        () -> new Case("../escape", g.build(x), List.of(Tensor.of(new float[] {1}, 1))));
    assertThrows(IllegalArgumentException.class, () -> new Case("ok", g.build(x), List.of()));
  }
}
