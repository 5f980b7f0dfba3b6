package dev.javelin.backend.xla;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Donation;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.spmd.Mesh;
import dev.javelin.backend.spmd.ProgramSharding;
import dev.javelin.backend.spmd.Sharding;
import dev.javelin.backend.testing.RelError;
import dev.javelin.backend.testing.Tensors;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * SPMD on {@code xla:cpu} with four devices: sharded programs give the single-device result,
 * sharded buffers round-trip bit for bit, and split values hold 1/N of their bytes per device.
 */
class XlaSpmdTest {
  private static final int DEVICES = 4;
  private static final Mesh FSDP = Mesh.of("fsdp", DEVICES);
  private static final Mesh GRID = Mesh.parse("dp=2,tp=2");
  private static XlaDevice xla;

  @BeforeAll
  static void open() {
    System.setProperty(CompileCache.PROPERTY, Path.of("target", "xla-cache").toString());
    System.setProperty(PjrtClient.CPU_DEVICES_PROPERTY, Integer.toString(DEVICES));
    xla = (XlaDevice) Devices.open("xla:cpu");
  }

  @AfterAll
  static void close() {
    xla.close();
    System.clearProperty(PjrtClient.CPU_DEVICES_PROPERTY);
  }

  @Test
  void clientHasTheRequestedDevices() {
    assertEquals(List.of(0, 1, 2, 3), xla.deviceIds());
  }

  @Test
  void uploadDownloadRoundTripsBitExactly() {
    Random rng = new Random(3);
    Mesh reversed = new Mesh(FSDP.axes(), List.of(3, 2, 1, 0));
    List<Sharding> shardings =
        List.of(Sharding.replicated(), Sharding.split(0, "fsdp"), Sharding.split(1, "fsdp"));
    for (DType t : DType.values()) {
      Tensor host =
          switch (t) {
            case PRED -> Tensors.convert(Tensors.randomInts(rng, 2, 8, 12), DType.PRED);
            case I32 -> Tensors.randomInts(rng, 1000, 8, 12);
            default -> Tensors.random(rng, t, 8, 12);
          };
      for (Mesh mesh : List.of(FSDP, reversed)) {
        for (Sharding s : shardings) {
          try (ShardedBuffer b = xla.upload(host, mesh, s)) {
            assertBitEqual(host, b.toHost(), t + " " + s + " on " + mesh);
            for (int p = 0; p < mesh.size(); p++) {
              assertEquals(mesh.deviceIds().get(p), b.deviceId(p), "block " + p + " placement");
            }
          }
        }
      }
    }
    Tensor x = Tensors.random(rng, DType.F32, 4, 6);
    try (ShardedBuffer b = xla.upload(x, GRID, Sharding.split(0, "dp").and(1, "tp"))) {
      assertBitEqual(x, b.toHost(), "2x2 tiles");
      assertEquals(Shape.of(2, 3), b.shardShape());
    }
  }

  @Test
  void splitValuesHoldOneNthOfTheirBytesPerDevice() {
    Tensor w = Tensors.random(new Random(4), DType.F32, 64, 32); // 8 KiB
    long whole = 64L * 32 * 4;
    try (ShardedBuffer split = xla.upload(w, FSDP, Sharding.split(0, "fsdp"));
        ShardedBuffer tiles = xla.upload(w, GRID, Sharding.split(0, "dp").and(1, "tp"));
        ShardedBuffer half = xla.upload(w, GRID, Sharding.split(1, "tp"));
        ShardedBuffer repl = xla.upload(w, FSDP, Sharding.replicated())) {
      for (int p = 0; p < DEVICES; p++) {
        assertEquals(whole / DEVICES, split.bytesOnChip(p), "fsdp block " + p);
        assertEquals(whole / DEVICES, tiles.bytesOnChip(p), "2x2 tile " + p);
        assertEquals(whole / 2, half.bytesOnChip(p), "tp half " + p);
        assertEquals(whole, repl.bytesOnChip(p), "replica " + p);
      }
    }
  }

  /** x (8, 16) · w (16, 12) under each layout of its operands and result. */
  @Test
  void matmulUnderEveryShardingEqualsOneDevice() {
    Random rng = new Random(5);
    Tensor x = Tensors.random(rng, DType.F32, 8, 16);
    Tensor w = Tensors.random(rng, DType.F32, 16, 12);
    Program p = matmul();
    Tensor expected = runSingle(p, x, w);
    Sharding r = Sharding.replicated();
    record Case(String name, Mesh mesh, Sharding x, Sharding w, Sharding out) {}
    List<Case> cases =
        List.of(
            new Case("replicated", FSDP, r, r, r),
            new Case("row split", FSDP, Sharding.split(0, "fsdp"), r, Sharding.split(0, "fsdp")),
            new Case("column split", FSDP, r, Sharding.split(1, "fsdp"), Sharding.split(1, "fsdp")),
            new Case(
                "contracting split", FSDP, Sharding.split(1, "fsdp"), Sharding.split(0, "fsdp"), r),
            new Case(
                "contracting split, rows out",
                FSDP,
                Sharding.split(1, "fsdp"),
                Sharding.split(0, "fsdp"),
                Sharding.split(0, "fsdp")),
            new Case(
                "2x2 dp rows, tp columns",
                GRID,
                Sharding.split(0, "dp"),
                Sharding.split(1, "tp"),
                Sharding.split(0, "dp").and(1, "tp")),
            new Case(
                "2x2 tp contracting",
                GRID,
                Sharding.split(0, "dp").and(1, "tp"),
                Sharding.split(0, "tp"),
                Sharding.split(0, "dp")));
    for (Case c : cases) {
      Program sharded =
          p.withSharding(new ProgramSharding(c.mesh, List.of(c.x, c.w), List.of(c.out)));
      try (Executable exe = xla.compile(sharded);
          ShardedBuffer xs = xla.upload(x, c.mesh, c.x);
          ShardedBuffer ws = xla.upload(w, c.mesh, c.w)) {
        List<DeviceBuffer> out = exe.run(List.of(xs, ws));
        ShardedBuffer y = (ShardedBuffer) out.get(0);
        assertEquals(c.out, y.sharding(), c.name);
        assertEquals(c.out.shardShape(Shape.of(8, 12), c.mesh), y.shardShape(), c.name);
        double err = RelError.of(expected, y.toHost(), null);
        System.out.printf("spmd matmul %-28s rel %.2e%n", c.name, err);
        assertTrue(err <= 1e-5, c.name + ": relative error " + err);
        y.close();
      }
    }
  }

  /** A donated sharded weight is updated in place: w - 0.5 g, split over fsdp. */
  @Test
  void donatedShardedArgumentIsUpdatedInPlace() {
    GraphBuilder g = new GraphBuilder("sgd");
    Node w = g.parameter("w", DType.F32, Shape.of(8, 4));
    Node grad = g.parameter("g", DType.F32, Shape.of(8, 4));
    Program p = g.build(g.sub(w, g.mul(g.full(grad, 0.5), grad)));
    Sharding rows = Sharding.split(0, "fsdp");
    Program sharded = p.withSharding(new ProgramSharding(FSDP, List.of(rows, rows), List.of(rows)));
    Random rng = new Random(6);
    Tensor wh = Tensors.random(rng, DType.F32, 8, 4);
    Tensor gh = Tensors.random(rng, DType.F32, 8, 4);
    Tensor expected = runSingle(p, wh, gh);
    try (Executable exe = xla.compile(sharded, Donation.byName(p, Map.of("w", 0)));
        ShardedBuffer ws = xla.upload(wh, FSDP, rows);
        ShardedBuffer gs = xla.upload(gh, FSDP, rows)) {
      DeviceBuffer out = exe.run(List.of(ws, gs)).get(0);
      assertBitEqual(expected, out.toHost(), "sgd step");
      assertThrows(IllegalStateException.class, ws::toHost, "the donated weight is consumed");
      out.close();
    }
    Program mismatched =
        p.withSharding(
            new ProgramSharding(FSDP, List.of(rows, rows), List.of(Sharding.replicated())));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> xla.compile(mismatched, Donation.byName(p, Map.of("w", 0))));
    assertTrue(e.getMessage().contains("cannot donate parameter 0"), e.getMessage());
  }

  @Test
  void wrongArgumentLayoutIsRefusedWithTheExpectedOne() {
    Program p =
        matmul()
            .withSharding(
                new ProgramSharding(
                    FSDP,
                    List.of(Sharding.split(0, "fsdp"), Sharding.replicated()),
                    List.of(Sharding.split(0, "fsdp"))));
    Random rng = new Random(7);
    try (Executable exe = xla.compile(p);
        ShardedBuffer xs =
            xla.upload(Tensors.random(rng, DType.F32, 8, 16), FSDP, Sharding.replicated());
        ShardedBuffer ws =
            xla.upload(Tensors.random(rng, DType.F32, 16, 12), FSDP, Sharding.replicated())) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> exe.run(List.of(xs, ws)));
      assertTrue(e.getMessage().contains("expects split{0=fsdp}"), e.getMessage());
    }
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                xla.compile(
                    matmul()
                        .withSharding(
                            new ProgramSharding(
                                new Mesh(FSDP.axes(), List.of(0, 1, 2, 9)),
                                List.of(Sharding.replicated(), Sharding.replicated()),
                                List.of(Sharding.replicated())))));
    assertTrue(e.getMessage().contains("uses chip 9"), e.getMessage());
  }

  private static Program matmul() {
    GraphBuilder g = new GraphBuilder("spmd_matmul");
    Node x = g.parameter("x", DType.F32, Shape.of(8, 16));
    Node w = g.parameter("w", DType.F32, Shape.of(16, 12));
    return g.build(g.matmul(x, w));
  }

  /** The program on the client's first device, unsharded. */
  private static Tensor runSingle(Program p, Tensor... inputs) {
    try (Executable exe = xla.compile(p)) {
      List<DeviceBuffer> args = java.util.Arrays.stream(inputs).map(xla::upload).toList();
      DeviceBuffer out = exe.run(args).get(0);
      Tensor t = out.toHost();
      out.close();
      args.forEach(DeviceBuffer::close);
      return t;
    }
  }

  private static void assertBitEqual(Tensor expected, Tensor actual, String what) {
    assertEquals(expected.shape(), actual.shape(), what);
    assertEquals(expected.dtype(), actual.dtype(), what);
    int n = expected.shape().intSize();
    long[] e = new long[n];
    long[] a = new long[n];
    for (int i = 0; i < n; i++) {
      e[i] = Double.doubleToRawLongBits(expected.getDouble(i));
      a[i] = Double.doubleToRawLongBits(actual.getDouble(i));
    }
    assertArrayEquals(e, a, what);
  }
}
