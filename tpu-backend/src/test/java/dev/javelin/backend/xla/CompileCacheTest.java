package dev.javelin.backend.xla;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compile cache (keys, memory and disk hits, recovery from a corrupt entry) and the device
 * freeing what is left open when it closes, and no memory growth over repeated runs.
 */
class CompileCacheTest {
  private static final byte[] OPTIONS = CompileOptions.singleDevice(0);

  @Test
  void keyDependsOnTextOptionsAndPlugin() {
    CompileCache a = new CompileCache(Optional.empty(), "cpu 1 pjrt 0.81");
    CompileCache b = new CompileCache(Optional.empty(), "cpu 2 pjrt 0.81");
    byte[] text = "module {}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(a.key(text, OPTIONS), a.key(text.clone(), OPTIONS.clone()));
    assertNotEquals(a.key(text, OPTIONS), b.key(text, OPTIONS));
    assertNotEquals(a.key(text, OPTIONS), a.key(text, new byte[] {1}));
  }

  @Test
  void serializedOptionsAreOneReplicaOnePartitionOnTheChip() {
    // executable_build_options (3, length 14) { num_replicas (4) = 1, num_partitions (5) = 1,
    //   device_assignment (9, length 8) { replica_count (1) = 1, computation_count (2) = 1,
    //     computation_devices (3, length 2) { replica_device_ids (1) = chip } } }
    assertArrayEquals(
        new byte[] {0x1a, 14, 0x20, 1, 0x28, 1, 0x4a, 8, 8, 1, 0x10, 1, 0x1a, 2, 8, 0}, OPTIONS);
    byte[] chip2 = CompileOptions.singleDevice(2);
    assertEquals(2, chip2[chip2.length - 1]);
  }

  @Test
  void secondDeviceLoadsFromDiskWithoutCompiling(@TempDir Path dir) throws IOException {
    Program program = program();
    float[] first;
    try (XlaDevice d = open(dir)) {
      first = run(d, program);
      assertEquals(0, d.cacheHits());
      assertEquals(1, d.cacheMisses());
      run(d, program); // same device: a memory hit
      assertEquals(1, d.cacheHits());
    }
    try (XlaDevice d = open(dir)) {
      assertArrayEquals(first, run(d, program));
      assertEquals(1, d.cacheHits());
      assertEquals(0, d.cacheMisses());
    }
  }

  @Test
  void corruptEntryIsRecompiled(@TempDir Path dir) throws IOException {
    Program program = program();
    float[] expected;
    try (XlaDevice d = open(dir)) {
      expected = run(d, program);
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.toList()) {
        Files.write(f, new byte[] {1, 2, 3});
      }
    }
    try (XlaDevice d = open(dir)) {
      assertArrayEquals(expected, run(d, program));
      assertEquals(1, d.cacheHits());
    }
    try (XlaDevice d = open(dir)) { // the bad entry was replaced by a good one
      assertArrayEquals(expected, run(d, program));
    }
  }

  @Test
  void closingTheDeviceFreesWhatIsStillOpen(@TempDir Path dir) {
    XlaDevice d = open(dir);
    DeviceBuffer x = d.upload(Tensor.of(new float[] {1, 2, 3, 4}, 4));
    Executable exe = d.compile(program());
    DeviceBuffer y = exe.run(List.of(x)).get(0);
    d.close();
    assertThrows(IllegalStateException.class, x::toHost);
    assertThrows(IllegalStateException.class, y::toHost);
    assertThrows(IllegalStateException.class, () -> exe.run(List.of(x)));
    assertThrows(IllegalStateException.class, () -> d.compile(program()));
    x.close(); // closing again is a no-op
    d.close();
  }

  @Test
  void repeatedRunsDoNotLeakDeviceMemory(@TempDir Path dir) throws IOException {
    GraphBuilder g = new GraphBuilder("leak_probe");
    Node x = g.parameter("x", DType.F32, Shape.of(1 << 18)); // 1 MiB
    Program program = g.build(g.exp(x), g.reduceSum(x, 0));
    float[] data = new float[1 << 18];
    try (XlaDevice d = open(dir)) {
      long[] rss = new long[3];
      for (int i = 0; i < 600; i++) { // 1.2 GiB of device buffers if nothing were freed
        if (i % 200 == 0) {
          rss[i / 200] = residentBytes();
        }
        try (Executable exe = d.compile(program);
            DeviceBuffer in = d.upload(Tensor.of(data, 1 << 18))) {
          List<DeviceBuffer> out = exe.run(List.of(in));
          out.get(1).toHost(); // the scalar: keep Java heap growth out of the measurement
          out.forEach(DeviceBuffer::close);
        }
      }
      long early = rss[1] - rss[0];
      long late = residentBytes() - rss[1];
      System.out.printf(
          "leak probe: RSS +%d MiB (runs 0-200), +%d MiB (runs 200-600)%n",
          early >> 20, late >> 20);
      assertTrue(late < (64L << 20), "resident memory grew by " + (late >> 20) + " MiB");
    }
  }

  private static long residentBytes() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
      }
    }
    throw new IllegalStateException("no VmRSS in /proc/self/status");
  }

  private static XlaDevice open(Path dir) {
    PluginDiscovery.Result found = PluginDiscovery.fromProcess().find("xla:cpu");
    Path plugin = found.plugin().orElseThrow(() -> new AssertionError(found.describe("xla:cpu")));
    return XlaDevice.open("xla:cpu", PjrtPlugin.load(plugin), Optional.of(dir));
  }

  private static Program program() {
    GraphBuilder g = new GraphBuilder("cache_probe");
    Node x = g.parameter("x", DType.F32, Shape.of(4));
    return g.build(g.mul(g.exp(x), g.full(x, 2)));
  }

  private static float[] run(XlaDevice d, Program program) {
    try (Executable exe = d.compile(program);
        DeviceBuffer x = d.upload(Tensor.of(new float[] {0, 1, -1, 0.5f}, 4))) {
      List<DeviceBuffer> out = exe.run(List.of(x));
      float[] data = ((Tensor.F32) out.get(0).toHost()).data();
      out.get(0).close();
      return data;
    }
  }
}
