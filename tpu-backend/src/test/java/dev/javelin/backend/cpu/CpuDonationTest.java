package dev.javelin.backend.cpu;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.javelin.backend.DType;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Donation;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.reference.ReferenceDevice;
import dev.javelin.backend.testing.Tensors;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The cpu device writes a donated KV cache in place, and only where that is safe. */
class CpuDonationTest {
  private static final CpuDevice CPU = new CpuDevice(2);

  @AfterAll
  static void close() {
    CPU.close();
  }

  /**
   * cache (3, 2, 5, 4) with one token per row at its index; optionally also reads the old cache.
   */
  private static Program slotWrite(boolean readOldCacheToo) {
    GraphBuilder g = new GraphBuilder("donate_" + readOldCacheToo);
    Node cache = g.parameter("cache", DType.F32, Shape.of(3, 2, 5, 4));
    Node tok = g.parameter("tok", DType.F32, Shape.of(3, 2, 1, 4));
    Node at = g.parameter("at", DType.I32, Shape.of(3));
    Node out = g.updateSlots(cache, tok, at, 2);
    Node summary = g.reduceSum(readOldCacheToo ? g.add(cache, out) : out, 2);
    return g.build(out, summary);
  }

  private static List<Tensor> args() {
    Random rng = new Random(3);
    return List.of(
        Tensors.random(rng, DType.F32, 3, 2, 5, 4),
        Tensors.random(rng, DType.F32, 3, 2, 1, 4),
        Tensor.ofInts(new int[] {4, 9, 0}, 3));
  }

  @Test
  void aDonatedCacheIsUpdatedInPlaceAndConsumed() {
    Program p = slotWrite(false);
    List<Tensor> host = args();
    List<Tensor> expected = ReferenceDevice.evaluate(p, host);
    CpuBuffer cache = (CpuBuffer) CPU.upload(host.get(0));
    Object array = cache.array();
    try (Executable e = CPU.compile(p, Donation.byName(p, Map.of("cache", 0)));
        DeviceBuffer tok = CPU.upload(host.get(1));
        DeviceBuffer at = CPU.upload(host.get(2))) {
      List<DeviceBuffer> out = e.run(List.of(cache, tok, at));
      assertSame(array, ((CpuBuffer) out.get(0)).array(), "the output is the cache's array");
      assertThrows(IllegalStateException.class, cache::toHost, "the donated cache is consumed");
      cache.close(); // a no-op: the array lives on in the output
      for (int i = 0; i < out.size(); i++) {
        Tensors.assertClose(expected.get(i), out.get(i).toHost(), 1e-6, "output " + i);
        out.get(i).close();
      }
    }
  }

  @Test
  void aCacheReadAfterTheWriteIsCopiedNotOverwritten() {
    Program p = slotWrite(true);
    List<Tensor> host = args();
    List<Tensor> expected = ReferenceDevice.evaluate(p, host);
    try (Executable e = CPU.compile(p, Donation.byName(p, Map.of("cache", 0)));
        DeviceBuffer cache = CPU.upload(host.get(0));
        DeviceBuffer tok = CPU.upload(host.get(1));
        DeviceBuffer at = CPU.upload(host.get(2))) {
      List<DeviceBuffer> out = e.run(List.of(cache, tok, at));
      Tensors.assertClose(host.get(0), cache.toHost(), 0, "the cache argument is intact");
      for (int i = 0; i < out.size(); i++) {
        Tensors.assertClose(expected.get(i), out.get(i).toHost(), 1e-6, "output " + i);
        out.get(i).close();
      }
    }
  }

  @Test
  void theSameBufferPassedTwiceIsNotOverwritten() {
    GraphBuilder g = new GraphBuilder("twice");
    Node cache = g.parameter("cache", DType.F32, Shape.of(3, 2, 5, 4));
    Node other = g.parameter("other", DType.F32, Shape.of(3, 2, 5, 4));
    Node tok = g.parameter("tok", DType.F32, Shape.of(3, 2, 1, 4));
    Node at = g.parameter("at", DType.I32, Shape.of(3));
    Program p = g.build(g.updateSlots(cache, tok, at, 2), g.reduceSum(other, 2));
    List<Tensor> host = args();
    try (Executable e = CPU.compile(p, Donation.byName(p, Map.of("cache", 0)));
        DeviceBuffer both = CPU.upload(host.get(0));
        DeviceBuffer tok2 = CPU.upload(host.get(1));
        DeviceBuffer at2 = CPU.upload(host.get(2))) {
      List<DeviceBuffer> out = e.run(List.of(both, both, tok2, at2));
      Tensors.assertClose(host.get(0), both.toHost(), 0, "a buffer bound twice stays intact");
      out.forEach(DeviceBuffer::close);
    }
  }
}
