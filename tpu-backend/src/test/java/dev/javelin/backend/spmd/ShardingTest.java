package dev.javelin.backend.spmd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.stablehlo.StableHloPrinter;
import dev.javelin.backend.testing.Tensors;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Mesh coordinates, GSPMD strings, host split/gather and the printer's sharding attributes. */
class ShardingTest {
  private static final Mesh FSDP = Mesh.of("fsdp", 4);
  private static final Mesh GRID = Mesh.parse("fsdp=2,tp=2");

  @Test
  void gspmdStrings() {
    assertEquals("{replicated}", Gspmd.format(Sharding.replicated(), FSDP, 2));
    assertEquals("{devices=[4,1]0,1,2,3}", Gspmd.format(Sharding.split(0, "fsdp"), FSDP, 2));
    assertEquals("{devices=[1,4]0,1,2,3}", Gspmd.format(Sharding.split(1, "fsdp"), FSDP, 2));
    assertEquals(
        "{devices=[2,1,2]0,1,2,3 last_tile_dim_replicate}",
        Gspmd.format(Sharding.split(0, "fsdp"), GRID, 2));
    // tp is the minor mesh axis: the devices sharing a tp coordinate are 0,2 and 1,3
    assertEquals(
        "{devices=[1,2,2]0,2,1,3 last_tile_dim_replicate}",
        Gspmd.format(Sharding.split(1, "tp"), GRID, 2));
    assertEquals(
        "{devices=[2,2]0,1,2,3}", Gspmd.format(Sharding.split(0, "fsdp").and(1, "tp"), GRID, 2));
    assertEquals(
        "{devices=[2,2]0,2,1,3}", Gspmd.format(Sharding.split(0, "tp").and(1, "fsdp"), GRID, 2));
  }

  @Test
  void meshPositionsAreRowMajor() {
    assertEquals(3, GRID.position(new int[] {1, 1}));
    assertEquals(List.of(1, 0), List.of(GRID.coordinates(2)[0], GRID.coordinates(2)[1]));
    assertEquals(2, GRID.axisSize("tp"));
  }

  @Test
  void splitThenGatherIsTheIdentity() {
    Tensor t = Tensors.random(new Random(1), DType.F32, 4, 6, 2);
    Sharding s = Sharding.split(0, "fsdp").and(1, "tp");
    List<Tensor> blocks = HostShards.split(t, s, GRID);
    assertEquals(4, blocks.size());
    assertEquals(Shape.of(2, 3, 2), blocks.get(3).shape());
    // block 3 is rows 2..3, columns 3..5
    assertEquals(((Tensor.F32) t).data()[(2 * 6 + 3) * 2], ((Tensor.F32) blocks.get(3)).data()[0]);
    Tensor back = HostShards.gather(DType.F32, t.shape(), s, GRID, blocks::get);
    Tensors.assertClose(t, back, 0, "gather");
    // a replicated axis: only positions with tp = 0 are read
    Sharding rows = Sharding.split(0, "fsdp");
    List<Tensor> halves = HostShards.split(t, rows, GRID);
    Tensor again =
        HostShards.gather(
            DType.F32,
            t.shape(),
            rows,
            GRID,
            p -> {
              assertEquals(0, GRID.coordinates(p)[1], "read a replica");
              return halves.get(p);
            });
    Tensors.assertClose(t, again, 0, "gather over a replicated axis");
  }

  @Test
  void badShardingsNameTheValueAndTheProblem() {
    Shape s = Shape.of(6, 4);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> Sharding.split(0, "fsdp").check(s, FSDP, "w"));
    assertTrue(
        e.getMessage().contains("does not split evenly over mesh axis fsdp=4"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class, () -> Sharding.split(2, "fsdp").check(s, FSDP, "w"));
    assertTrue(e.getMessage().contains("has no dimension 2"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class, () -> Sharding.split(0, "tp").check(s, FSDP, "w"));
    assertTrue(e.getMessage().contains("no axis 'tp'"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Mesh.parse("fsdp=2,tp"));
    assertTrue(e.getMessage().contains("expected name=size"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Sharding.split(0, "a").and(1, "a"));
  }

  @Test
  void printerAnnotatesArgumentsResultsAndModule() {
    GraphBuilder g = new GraphBuilder("mm");
    Node x = g.parameter("x", DType.F32, Shape.of(8, 16));
    Node w = g.parameter("w", DType.F32, Shape.of(16, 12));
    Program p =
        g.build(g.matmul(x, w))
            .withSharding(
                new ProgramSharding(
                    GRID,
                    List.of(Sharding.split(0, "fsdp"), Sharding.split(1, "tp")),
                    List.of(Sharding.split(0, "fsdp").and(1, "tp"))));
    String text = StableHloPrinter.print(p);
    assertTrue(text.contains("module @mm attributes {mhlo.num_partitions = 4 : i32,"), text);
    assertTrue(
        text.contains(
            "%arg0: tensor<8x16xf32> {mhlo.sharding = \"{devices=[2,1,2]0,1,2,3"
                + " last_tile_dim_replicate}\"}"),
        text);
    assertTrue(
        text.contains("-> (tensor<8x12xf32> {mhlo.sharding = \"{devices=[2,2]0,1,2,3}\"})"), text);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                g.build(g.matmul(x, w))
                    .withSharding(new ProgramSharding(GRID, List.of(), List.of())));
    assertTrue(e.getMessage().contains("has 2 parameters and 1 outputs"), e.getMessage());
  }
}
