package dev.javelin.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.reference.ReferenceDevice;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class ProgramCacheTest {
  private final Device device = new ReferenceDevice();

  private static Program doubler(int n) {
    GraphBuilder g = new GraphBuilder("double");
    Node x = g.parameter("x", DType.F32, Shape.of(n));
    return g.build(g.add(x, x));
  }

  private static Supplier<Program> counted(AtomicInteger builds, int n) {
    return () -> {
      builds.incrementAndGet();
      return doubler(n);
    };
  }

  @Test
  void compilesOncePerShapeBucket() {
    AtomicInteger builds = new AtomicInteger();
    try (ProgramCache cache = new ProgramCache(device)) {
      DeviceBuffer a = device.upload(Tensor.of(new float[] {1, 2}, 2));
      DeviceBuffer b = device.upload(Tensor.of(new float[] {3, 4}, 2));
      DeviceBuffer c = device.upload(Tensor.of(new float[] {5, 6, 7}, 3));
      Executable first = cache.get("double", List.of(a), counted(builds, 2));
      Executable again = cache.get("double", List.of(b), counted(builds, 2));
      Executable other = cache.get("double", List.of(c), counted(builds, 3));
      assertSame(first, again);
      assertNotSame(first, other);
      assertEquals(2, builds.get());
      assertEquals(2, cache.size());
      assertEquals(1, cache.hits());
      assertEquals(2, cache.misses());
      float[] out = ((Tensor.F32) again.run(List.of(b)).get(0).toHost()).data();
      assertEquals(8f, out[1]);
    }
  }

  @Test
  void rejectsAProgramThatDoesNotMatchItsKey() {
    try (ProgramCache cache = new ProgramCache(device)) {
      DeviceBuffer a = device.upload(Tensor.of(new float[] {1, 2}, 2));
      var e =
          assertThrows(
              IllegalStateException.class, () -> cache.get("double", List.of(a), () -> doubler(5)));
      assertTrue(e.getMessage().contains("double"), e.getMessage());
    }
  }
}
