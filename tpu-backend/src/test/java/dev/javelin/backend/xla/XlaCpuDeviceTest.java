package dev.javelin.backend.xla;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op;
import dev.javelin.backend.graph.Op.Direction;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.RopeTable;
import dev.javelin.backend.program.ModelPrograms;
import dev.javelin.backend.reference.ReferenceDevice;
import dev.javelin.backend.testing.RelError;
import dev.javelin.backend.testing.Tensors;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Conformance of {@code xla:cpu} (a real PJRT plugin through the JNI shim) against the {@code cpu}
 * engine: primitive ops and a model forward agree within 1e-4 relative error. Fails, with the
 * discovery message, when no CPU plugin is installed.
 */
class XlaCpuDeviceTest {
  private static final double TOL = 1e-4;
  private static Device xla;
  private static Device cpu;

  @BeforeAll
  static void open() {
    // keep the test's compile cache inside the build folder, not in ~/.cache
    System.setProperty(CompileCache.PROPERTY, Path.of("target", "xla-cache").toString());
    xla = Devices.open("xla:cpu");
    cpu = Devices.open("cpu");
  }

  @AfterAll
  static void close() {
    xla.close();
    cpu.close();
  }

  @Test
  void reportsPluginAndPlatform() {
    XlaDevice d = (XlaDevice) xla;
    assertEquals("cpu", d.platform());
    assertTrue(d.plugin().minor() >= PjrtNative.headerMinorVersion(), d.plugin().version());
  }

  @Test
  void roundTripsEveryElementType() {
    Random rng = new Random(1);
    for (DType t : DType.values()) {
      Tensor host =
          switch (t) {
            case PRED -> new Tensor.Pred(Shape.of(3), new boolean[] {true, false, true});
            case I32 -> Tensors.randomInts(rng, 1000, 2, 3);
            default -> Tensors.random(rng, t, 2, 3);
          };
      try (DeviceBuffer b = xla.upload(host)) {
        Tensors.assertClose(host, b.toHost(), 0, "round trip " + t);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"F32", "BF16"})
  void elementwiseAndReductions(DType t) {
    GraphBuilder g = new GraphBuilder("elementwise_" + t);
    Node x = g.parameter("x", t, Shape.of(4, 5));
    Node y = g.parameter("y", t, Shape.of(4, 5));
    Node e = g.add(g.mul(g.tanh(x), g.exp(y)), g.logistic(g.sub(x, y)));
    Node s = g.reduceSum(e, 1);
    Node m = g.reduceMax(g.div(x, g.add(g.abs(y), g.full(y, 1))), 0);
    Node pick = g.select(g.compare(x, y, Direction.GT), x, g.neg(y));
    Node cast = g.convert(g.mul(x, g.full(x, 3)), DType.I32);
    assertAgree(g.build(e, s, m, pick, cast, g.compare(x, y, Direction.LT)), 2);
  }

  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"F32", "BF16"})
  void layoutProductsAndIndexing(DType t) {
    GraphBuilder g = new GraphBuilder("layout_" + t);
    Node x = g.parameter("x", t, Shape.of(3, 4));
    Node w = g.parameter("w", t, Shape.of(4, 6));
    Node ids = g.parameter("ids", DType.I32, Shape.of(5));
    Node start = g.parameter("start", DType.I32, Shape.scalar());
    Node mm = g.matmul(x, w); // (3, 6)
    Node tr = g.transpose(mm, 1, 0); // (6, 3)
    Node r = g.reshape(tr, 2, 9);
    Node b = g.broadcastInDim(g.reduceSum(x, 1), Shape.of(3, 5), 0);
    Node gathered = g.gather(w, ids); // (5, 6)
    Node updated =
        g.dynamicUpdateSlice(
            mm,
            g.sliceAxis(gathered, 0, 0, 2),
            List.of(start, g.constant(0, DType.I32, Shape.scalar())));
    Node iota = g.iota(t, Shape.of(2, 3), 1);
    assertAgree(g.build(mm, r, b, gathered, updated, iota), 3);
  }

  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"F32", "BF16"})
  void slicingScatterAndBatchedProducts(DType t) {
    GraphBuilder g = new GraphBuilder("indexing_" + t);
    Node x = g.parameter("x", t, Shape.of(2, 4, 3));
    Node y = g.parameter("y", t, Shape.of(2, 3, 5));
    Node ids = g.parameter("ids", DType.I32, Shape.of(6));
    Node upd = g.parameter("upd", t, Shape.of(6, 3));
    Node start = g.parameter("start", DType.I32, Shape.scalar());
    Node zero = g.constant(0, DType.I32, Shape.scalar());
    Node bmm = g.dotGeneral(x, y, new int[] {0}, new int[] {0}, new int[] {2}, new int[] {1});
    Node strided = g.slice(x, new int[] {0, 1, 0}, new int[] {2, 4, 3}, new int[] {1, 2, 2});
    Node cat = g.concatenate(1, List.of(x, g.sliceAxis(x, 1, 0, 2)));
    Node window = g.dynamicSlice(x, List.of(zero, start, zero), 2, 2, 3); // start clamps
    Node scattered = g.scatterAdd(ids, upd, 4); // ids >= 4 are dropped
    Node pw = g.pow(g.abs(upd), g.min(upd, g.full(upd, 2)));
    assertAgree(g.build(bmm, strided, cat, window, scattered, pw), 4);
  }

  /** Per-row slot writes lower to a scatter that drops the rows whose index is out of range. */
  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"F32", "BF16"})
  void updateSlotsSkipsRowsOutOfRange(DType t) {
    GraphBuilder g = new GraphBuilder("slots_" + t);
    Node cache = g.parameter("cache", t, Shape.of(5, 2, 7, 3));
    Node upd = g.parameter("upd", t, Shape.of(5, 2, 1, 3));
    Node at = g.parameter("at", DType.I32, Shape.of(5));
    Node out = g.updateSlots(cache, upd, at, 2);
    Random rng = new Random(8);
    List<Tensor> args =
        List.of(
            Tensors.random(rng, t, 5, 2, 7, 3),
            Tensors.random(rng, t, 5, 2, 1, 3),
            Tensor.ofInts(new int[] {6, 0, 7, -1, 3}, 5));
    assertAgree(g.build(out, g.reduceSum(g.mul(out, out), 2)), args);
    Tensors.assertClose(
        ReferenceDevice.evaluate(g.build(out), args).get(0),
        run(xla, g.build(out), args).get(0),
        0,
        "slot writes are copies");
  }

  /**
   * The mixed-precision matmul: bf16 operands, f32 result (StableHLO dot_general with an f32 result
   * type), against the reference's double sums at the f32 tolerance.
   */
  @Test
  void bf16ProductsWithAnF32Result() {
    GraphBuilder g = new GraphBuilder("dot_bf16_f32");
    Node a = g.parameter("a", DType.BF16, Shape.of(30, 256));
    Node b = g.parameter("b", DType.BF16, Shape.of(19, 256));
    int[] none = new int[0];
    Node y = g.dotGeneral(a, b, none, none, new int[] {1}, new int[] {1}, DType.F32);
    Random rng = new Random(6);
    List<Tensor> args =
        List.of(Tensors.random(rng, DType.BF16, 30, 256), Tensors.random(rng, DType.BF16, 19, 256));
    Program p = g.build(y, g.convert(y, DType.BF16));
    List<Tensor> expected = ReferenceDevice.evaluate(p, args);
    List<Tensor> actual = run(xla, p, args);
    assertEquals(DType.F32, actual.get(0).dtype());
    RelError.assertClose("f32 result", expected.get(0), actual.get(0), TOL);
    Tensors.assertBf16Agree(expected.get(1), actual.get(1), 0.02, "rounded to bf16");
  }

  @Test
  void doublePrecisionPrograms() {
    GraphBuilder g = new GraphBuilder("f64");
    Node x = g.parameter("x", DType.F64, Shape.of(3, 3));
    Node y = g.matmul(g.exp(x), g.transpose(x, 1, 0));
    assertAgree(g.build(y, g.reduceMax(y, 0, 1), g.convert(y, DType.F32)), 5);
  }

  @Test
  void modelForwardMatchesCpu() {
    ModelConfig c =
        new ModelConfig(64, 32, 48, 2, 4, 2, 8, 10_000, 1e-6, true, true, 16, LlamaFamily.QWEN2);
    Program forward = ModelPrograms.forward(c, 2, 6, c.maxPositions());
    RopeTable rope = RopeTable.compute(c, c.maxPositions());
    Random rng = new Random(7);
    List<Tensor> args = new ArrayList<>();
    for (Node p : forward.parameters()) {
      String name = ((Op.Parameter) p.op()).name();
      args.add(
          switch (name) {
            case ModelPrograms.INPUT_IDS -> Tensors.randomInts(rng, c.vocabSize(), 2, 6);
            case ModelPrograms.POSITIONS ->
                Tensor.ofInts(new int[] {0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5}, 2, 6);
            case ModelPrograms.ATTENTION_MASK ->
                Tensor.of(new float[] {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0}, 2, 6);
            case ModelPrograms.ROPE_COS -> rope.cos();
            case ModelPrograms.ROPE_SIN -> rope.sin();
            default -> Tensors.uniform(rng, DType.F32, p.shape(), -0.5, 0.5);
          });
    }
    assertAgree(forward, args);
  }

  @Test
  void pluginErrorsBecomeExceptionsWithTheMessage() {
    try (DeviceBuffer b = xla.upload(Tensor.of(new float[] {1, 2}, 2))) {
      GraphBuilder g = new GraphBuilder("shape_mismatch");
      Node x = g.parameter("x", DType.F32, Shape.of(3));
      Executable exe = xla.compile(g.build(g.neg(x)));
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> exe.run(List.of(b)));
      assertTrue(e.getMessage().contains("expects f32[3]"), e.getMessage());
      exe.close();
    }
    PjrtException bad =
        assertThrows(
            PjrtException.class,
            () ->
                PjrtNative.compile(
                    ((XlaDevice) xla).api(),
                    0,
                    "not mlir".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    CompileOptions.singleDevice(0)));
    assertTrue(bad.getMessage().length() > 10, bad.getMessage());
  }

  private static void assertAgree(Program program, int seed) {
    Random rng = new Random(seed);
    List<Tensor> args = new ArrayList<>();
    for (Node p : program.parameters()) {
      args.add(
          p.dtype() == DType.I32
              ? Tensors.randomInts(rng, p.shape().rank() == 0 ? 4 : 6, p.shape().dims())
              : Tensors.random(rng, p.dtype(), p.shape().dims()));
    }
    assertAgree(program, args);
  }

  private static void assertAgree(Program program, List<Tensor> args) {
    List<Tensor> expected = run(cpu, program, args);
    List<Tensor> actual = run(xla, program, args);
    assertEquals(expected.size(), actual.size());
    boolean bf16 = program.parameters().stream().anyMatch(p -> p.dtype() == DType.BF16);
    for (int i = 0; i < expected.size(); i++) {
      // bf16: both devices round every op, but compute it differently (XLA fuses, cpu rounds each)
      double tol = bf16 ? Tensors.BF16_TOL : TOL;
      RelError.assertClose(program.name() + " output " + i, expected.get(i), actual.get(i), tol);
    }
  }

  private static List<Tensor> run(Device device, Program program, List<Tensor> args) {
    List<DeviceBuffer> in = new ArrayList<>();
    args.forEach(a -> in.add(device.upload(a)));
    try (Executable exe = device.compile(program)) {
      List<DeviceBuffer> out = exe.run(in);
      List<Tensor> host = new ArrayList<>();
      for (DeviceBuffer b : out) {
        host.add(b.toHost());
        b.close();
      }
      return host;
    } finally {
      in.forEach(DeviceBuffer::close);
    }
  }
}
