package dev.javelin.backend.xla;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.spmd.Mesh;
import dev.javelin.backend.spmd.Sharding;
import dev.javelin.backend.testing.Tensors;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Devices bound to chip subsets of one four-device {@code xla:cpu} client: a program runs on the
 * bound chip with the result it has on chip 0, meshes stay inside the bound chips, and disjoint
 * devices run at the same time.
 */
class XlaChipsTest {
  private static final int DEVICES = 4;
  private static final Random RNG = new Random(11);
  private static final Tensor X = Tensors.random(RNG, DType.F32, 8, 16);
  private static final Tensor W = Tensors.random(RNG, DType.F32, 16, 12);

  @BeforeAll
  static void fourDevices() {
    System.setProperty(CompileCache.PROPERTY, Path.of("target", "xla-cache").toString());
    System.setProperty(PjrtClient.CPU_DEVICES_PROPERTY, Integer.toString(DEVICES));
  }

  @AfterAll
  static void restore() {
    System.clearProperty(PjrtClient.CPU_DEVICES_PROPERTY);
  }

  /** tanh(x · w) + 1: a dot and elementwise work, so a wrong placement cannot hide. */
  private static Program program() {
    GraphBuilder g = new GraphBuilder("chips_matmul");
    Node x = g.parameter("x", DType.F32, Shape.of(8, 16));
    Node w = g.parameter("w", DType.F32, Shape.of(16, 12));
    Node y = g.tanh(g.matmul(x, w));
    return g.build(g.add(y, g.constant(1.0, DType.F32, y.shape())));
  }

  private static XlaDevice open(String spec) {
    return (XlaDevice) Devices.open(spec);
  }

  /** Runs {@link #program} on {@code d}; returns the result and asserts where each buffer lives. */
  private static float[] runOn(XlaDevice d, int chip) {
    try (Executable exe = d.compile(program())) {
      XlaBuffer x = (XlaBuffer) d.upload(X);
      XlaBuffer w = (XlaBuffer) d.upload(W);
      assertEquals(chip, x.chip(), "upload on " + d.name());
      assertEquals(List.of(chip), ((XlaExecutable) exe).chips(), "executable on " + d.name());
      List<DeviceBuffer> out = exe.run(List.of(x, w));
      assertEquals(chip, ((XlaBuffer) out.get(0)).chip(), "output of " + d.name());
      float[] data = ((Tensor.F32) out.get(0).toHost()).data();
      out.forEach(DeviceBuffer::close);
      x.close();
      w.close();
      return data;
    }
  }

  @Test
  void specsParseIntoChipsAndBadOnesNameTheSpec() {
    assertEquals(new ChipSpec("xla:cpu", Optional.empty()), ChipSpec.parse("xla:cpu"));
    assertEquals(List.of(0, 1, 2, 5), ChipSpec.parse("tpu@0-2,5").chips().orElseThrow());
    assertEquals("tpu", ChipSpec.parse("tpu@0-2,5").plugin());
    assertEquals("tpu@0-3,6", ChipSpec.format("tpu", List.of(0, 1, 2, 3, 6)));
    assertEquals("xla:cpu@2", ChipSpec.format("xla:cpu", List.of(2)));
    assertEquals("xla:cpu@3,1", ChipSpec.format("xla:cpu", List.of(3, 1)));
    for (String bad : List.of("xla:cpu@", "xla:cpu@a", "xla:cpu@3-1", "xla:cpu@1,1", "tpu@0-2,2")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> ChipSpec.parse(bad), bad);
      assertTrue(e.getMessage().startsWith("device spec '" + bad + "'"), e.getMessage());
    }
  }

  @Test
  void programOnChipTwoMatchesChipZeroAndStaysThere() {
    float[] onZero;
    try (XlaDevice all = open("xla:cpu")) {
      assertEquals(List.of(0, 1, 2, 3), all.chips());
      onZero = runOn(all, 0);
    }
    try (XlaDevice two = open("xla:cpu@2")) {
      assertEquals(List.of(2), two.chips());
      assertArrayEquals(onZero, runOn(two, 2), "chip 2 against chip 0");
    }
    // A second device finds the program in the disk cache: the loaded executable stays on chip 2.
    try (XlaDevice again = open("xla:cpu@2")) {
      assertArrayEquals(onZero, runOn(again, 2), "chip 2 from the compile cache");
      assertTrue(again.cacheHits() >= 1, "loaded from the cache");
    }
  }

  @Test
  void meshesMayUseBoundChipsOnly() {
    try (XlaDevice pair = open("xla:cpu@2,3")) {
      Mesh inside = new Mesh(List.of(new Mesh.Axis("fsdp", 2)), pair.chips());
      try (ShardedBuffer b = pair.upload(X, inside, Sharding.split(0, "fsdp"))) {
        assertEquals(2, b.deviceId(0));
        assertEquals(3, b.deviceId(1));
        assertArrayEquals(((Tensor.F32) X).data(), ((Tensor.F32) b.toHost()).data());
      }
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> pair.upload(X, Mesh.of("fsdp", 2), Sharding.split(0, "fsdp")));
      assertTrue(
          e.getMessage().contains("uses chip 0") && e.getMessage().contains("xla:cpu@2,3"),
          e.getMessage());
    }
  }

  @Test
  void aChipTheHostLacksIsOneLine() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> open("xla:cpu@3-4"));
    assertTrue(e.getMessage().startsWith("device spec 'xla:cpu@3-4': chip 4"), e.getMessage());
    assertTrue(e.getMessage().contains("-D" + PjrtClient.CPU_DEVICES_PROPERTY), e.getMessage());
  }

  @Test
  void disjointDevicesRunConcurrently() throws Exception {
    float[] expected;
    try (XlaDevice zero = open("xla:cpu@0")) {
      expected = runOn(zero, 0);
    }
    List<XlaDevice> devices = List.of(open("xla:cpu@1"), open("xla:cpu@3"));
    ExecutorService pool = Executors.newFixedThreadPool(devices.size());
    try {
      List<Future<List<float[]>>> runs = new ArrayList<>();
      for (XlaDevice d : devices) {
        int chip = d.chips().get(0);
        runs.add(
            pool.submit(
                () -> {
                  List<float[]> results = new ArrayList<>();
                  for (int i = 0; i < 10; i++) {
                    results.add(runOn(d, chip));
                  }
                  return results;
                }));
      }
      for (Future<List<float[]>> r : runs) {
        for (float[] result : r.get()) {
          assertArrayEquals(expected, result);
        }
      }
    } finally {
      pool.shutdownNow();
      devices.forEach(XlaDevice::close);
    }
  }
}
