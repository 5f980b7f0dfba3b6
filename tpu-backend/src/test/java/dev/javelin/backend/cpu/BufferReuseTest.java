package dev.javelin.backend.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
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
import dev.javelin.backend.reference.ReferenceDevice;
import dev.javelin.backend.testing.Tensors;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Buffers: ownership, recycling of closed buffers into outputs, argument checks. */
class BufferReuseTest {

  /** A cache-update step: writes row {@code pos} of a (4, 16, 8) cache and sums the cache. */
  private static Program cacheStep() {
    GraphBuilder g = new GraphBuilder("cache_step");
    Node cache = g.parameter("cache", DType.F32, Shape.of(4, 16, 8));
    Node row = g.parameter("row", DType.F32, Shape.of(4, 1, 8));
    Node pos = g.parameter("pos", DType.I32, Shape.scalar());
    Node zero = g.constant(0, DType.I32, Shape.scalar());
    Node updated = g.dynamicUpdateSlice(cache, row, List.of(zero, pos, zero));
    return g.build(updated, g.reduceSum(updated, 1, 2));
  }

  @Test
  void decodeLoopRecyclesTheCacheItCloses() {
    CpuDevice cpu = CpuCheck.CPU;
    Program p = cacheStep();
    try (Executable e = cpu.compile(p)) {
      Tensor start = Tensor.F32.zeros(Shape.of(4, 16, 8));
      DeviceBuffer cache = cpu.upload(start);
      Tensor expected = start;
      Object previousArray = null;
      for (int step = 0; step < 16; step++) {
        Tensor row =
            Tensors.uniform(new java.util.Random(step), DType.F32, Shape.of(4, 1, 8), -1, 1);
        Tensor pos = Tensors.i32Scalar(step);
        List<Tensor> want = ReferenceDevice.evaluate(p, List.of(expected, row, pos));
        List<DeviceBuffer> out = e.run(List.of(cache, cpu.upload(row), cpu.upload(pos)));
        Tensors.assertClose(want.get(0), out.get(0).toHost(), 0, "cache at step " + step);
        Tensors.assertClose(want.get(1), out.get(1).toHost(), 1e-6, "sums at step " + step);
        if (previousArray != null) {
          // The cache closed after the last step came back as this step's output.
          assertSame(previousArray, ((CpuBuffer) out.get(0)).array(), "step " + step);
        }
        Object current = ((CpuBuffer) cache).array();
        cache.close();
        previousArray = current;
        out.get(1).close();
        cache = out.get(0);
        expected = want.get(0);
      }
      cache.close();
    }
  }

  @Test
  void buffersAreCopiesAndCloseOnce() {
    CpuDevice cpu = CpuCheck.CPU;
    float[] data = {1, 2, 3};
    DeviceBuffer b = cpu.upload(Tensor.of(data, 3));
    data[0] = 99;
    assertEquals(1f, ((Tensor.F32) b.toHost()).data()[0], "upload must copy");
    ((Tensor.F32) b.toHost()).data()[1] = 42;
    assertEquals(2f, ((Tensor.F32) b.toHost()).data()[1], "toHost must copy");
    b.close();
    b.close();
    assertThrows(IllegalStateException.class, b::toHost);
  }

  @Test
  void parameterOutputsAndRepeatedOutputsAreSeparateArrays() {
    GraphBuilder g = new GraphBuilder("passthrough");
    Node x = g.parameter("x", DType.F32, Shape.of(5));
    Node y = g.neg(x);
    Program p = g.build(x, y, y, g.reshape(y, 5, 1));
    CpuDevice cpu = CpuCheck.CPU;
    DeviceBuffer in = cpu.upload(Tensor.of(new float[] {1, 2, 3, 4, 5}, 5));
    try (Executable e = cpu.compile(p)) {
      List<DeviceBuffer> out = e.run(List.of(in));
      for (int i = 0; i < out.size(); i++) {
        for (int j = i + 1; j < out.size(); j++) {
          assertTrue(((CpuBuffer) out.get(i)).array() != ((CpuBuffer) out.get(j)).array());
        }
        assertTrue(((CpuBuffer) out.get(i)).array() != ((CpuBuffer) in).array());
      }
      out.forEach(DeviceBuffer::close);
    }
  }

  @Test
  void badArgumentsAreNamed() {
    CpuDevice cpu = CpuCheck.CPU;
    try (Executable e = cpu.compile(cacheStep())) {
      IllegalArgumentException ex =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  e.run(
                      List.of(
                          cpu.upload(Tensor.F32.zeros(Shape.of(4, 15, 8))),
                          cpu.upload(Tensor.F32.zeros(Shape.of(4, 1, 8))),
                          cpu.upload(Tensors.i32Scalar(0)))));
      assertTrue(ex.getMessage().contains("cache"), ex.getMessage());
      assertThrows(IllegalArgumentException.class, () -> e.run(List.of()));
    }
  }
}
