package dev.javelin.backend.stablehlo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The text of the lowering; that XLA accepts and agrees with it is {@link StableHloXlaTest}. */
class StableHloPrinterTest {

  @Test
  void printsAModuleWithMainTakingParametersInOrderAndReturningOutputs() {
    GraphBuilder g = new GraphBuilder("tiny/forward b=2");
    Node x = g.parameter("x", DType.F32, Shape.of(2, 3));
    Node w = g.parameter("w", DType.F32, Shape.of(3, 4));
    Node y = g.matmul(x, w);
    String text = StableHloPrinter.print(g.build(y, x));
    String expected =
        "module @tiny_forward_b_2 {\n"
            + "  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3x4xf32>)"
            + " -> (tensor<2x4xf32>, tensor<2x3xf32>) {\n"
            + "    %v2 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0]"
            + " : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>\n"
            + "    return %v2, %arg0 : tensor<2x4xf32>, tensor<2x3xf32>\n"
            + "  }\n"
            + "}\n";
    assertEquals(expected, text);
  }

  @Test
  void writesBatchDimsOfDotGeneralAndScalarTypes() {
    GraphBuilder g = new GraphBuilder("attn");
    Node q = g.parameter("q", DType.F32, Shape.of(2, 3, 4));
    Node k = g.parameter("k", DType.F32, Shape.of(2, 5, 4));
    Node s = g.parameter("s", DType.I32, Shape.scalar());
    Node scores = g.dotGeneral(q, k, new int[] {0}, new int[] {0}, new int[] {2}, new int[] {2});
    String text = StableHloPrinter.print(g.build(scores, s));
    assertTrue(
        text.contains(
            "batching_dims = [0] x [0], contracting_dims = [2] x [2]"
                + " : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>"),
        text);
    assertTrue(text.contains("%arg2: tensor<i32>"), text);
  }

  @Test
  void spellsConstantsSoMlirParsesThemExactly() {
    assertEquals("-1.0e-5", MlirLiterals.of(-1e-5, DType.F32));
    assertEquals("0.1", MlirLiterals.of(0.1, DType.F32));
    assertEquals("0.1", MlirLiterals.of(0.1, DType.F64));
    assertEquals("0xFF800000", MlirLiterals.of(Double.NEGATIVE_INFINITY, DType.F32));
    assertEquals("0x7FF0000000000000", MlirLiterals.of(Double.POSITIVE_INFINITY, DType.F64));
    assertEquals("0x7FC00000", MlirLiterals.of(Double.NaN, DType.F32));
    assertEquals("-7", MlirLiterals.of(-7, DType.I32));
    assertEquals("true", MlirLiterals.of(1, DType.PRED));
    assertEquals("0xFF800000", MlirLiterals.lowest(DType.F32));
    assertEquals("-2147483648", MlirLiterals.lowest(DType.I32));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> MlirLiterals.of(0.5, DType.I32));
    assertTrue(e.getMessage().contains("0.5"), e.getMessage());
  }

  @Test
  void reductionsGetTheirIdentityAsInit() {
    GraphBuilder g = new GraphBuilder("r");
    Node x = g.parameter("x", DType.F32, Shape.of(2, 3));
    String text = StableHloPrinter.print(g.build(g.reduceMax(x, 1), g.reduceSum(x, 0, 1)));
    assertTrue(text.contains("%init0 = stablehlo.constant dense<0xFF800000> : tensor<f32>"), text);
    assertTrue(
        text.contains(
            "stablehlo.reduce(%arg0 init: %init0) applies stablehlo.maximum across dimensions"
                + " = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>"),
        text);
    assertTrue(text.contains("%init1 = stablehlo.constant dense<0.0> : tensor<f32>"), text);
    assertTrue(text.contains("applies stablehlo.add across dimensions = [0, 1]"), text);
  }

  @Test
  void gatherAndScatterCarryDimensionNumbersForRowLookups() {
    GraphBuilder g = new GraphBuilder("embed");
    Node table = g.parameter("table", DType.F32, Shape.of(10, 4));
    Node ids = g.parameter("ids", DType.I32, Shape.of(2, 3));
    Node rows = g.gather(table, ids);
    Node back = g.scatterAdd(ids, rows, 10);
    String text = StableHloPrinter.print(g.build(rows, back));
    assertTrue(
        text.contains(
            "#stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map ="
                + " [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes ="
                + " array<i64: 1, 4>}"),
        text);
    assertTrue(
        text.contains(
            "#stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0],"
                + " scatter_dims_to_operand_dims = [0], index_vector_dim = 2>"),
        text);
    assertTrue(text.contains("stablehlo.return"), text);
  }

  @Test
  void namesModulesWithPlainSymbols() {
    assertEquals("decode_b4_s128", StableHloPrinter.moduleName("decode/b4-s128"));
    assertEquals("p_2step", StableHloPrinter.moduleName("2step"));
    assertEquals("p_", StableHloPrinter.moduleName(""));
  }

  @Test
  void refusesReductionsOverBooleans() {
    GraphBuilder g = new GraphBuilder("bad");
    Node x = g.parameter("x", DType.F32, Shape.of(3));
    Node p = g.compare(x, x, dev.javelin.backend.graph.Op.Direction.GT);
    Node any = g.reduceMax(p, 0);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> StableHloPrinter.print(g.build(List.of(any))));
    assertTrue(e.getMessage().contains("i1"), e.getMessage());
  }
}
