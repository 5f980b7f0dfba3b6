package dev.javelin.backend.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.testing.Tensors;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** What the compiler does with common patterns: how much fuses, and how buffers are reused. */
class FusionPlanTest {

  private static Program softmax() {
    GraphBuilder g = new GraphBuilder("softmax");
    Shape s = Shape.of(8, 64, 100);
    Node x = g.parameter("x", DType.F32, s);
    Node m = g.reduceMax(x, 2);
    Node e = g.exp(g.sub(x, g.broadcastInDim(m, s, 0, 1)));
    Node sum = g.reduceSum(e, 2);
    return g.build(g.div(e, g.broadcastInDim(sum, s, 0, 1)));
  }

  @Test
  void softmaxIsFourKernels() {
    Program p = softmax();
    try (CpuExecutable e = (CpuExecutable) CpuCheck.CPU.compile(p)) {
      // max, exp (shared by sum and div, so stored once), sum, div: no broadcast or sub stored.
      assertEquals(4, e.kernelCount(), e.describe());
    }
    CpuCheck.matches(p, Tensors.uniform(new Random(1), DType.F32, Shape.of(8, 64, 100), -5, 5));
  }

  @Test
  void rmsNormFusesSquareIntoTheReduction() {
    GraphBuilder g = new GraphBuilder("rmsnorm");
    Shape s = Shape.of(4, 32, 64);
    Node x = g.parameter("x", DType.F32, s);
    Node gain = g.parameter("gain", DType.F32, Shape.of(64));
    Node ms = g.div(g.reduceSum(g.mul(x, x), 2), g.constant(64, DType.F32, Shape.of(4, 32)));
    Node r = g.rsqrt(g.add(ms, g.constant(1e-6, DType.F32, Shape.of(4, 32))));
    Node y = g.mul(g.mul(x, g.broadcastInDim(r, s, 0, 1)), g.broadcastTo(gain, s));
    Program p = g.build(y);
    try (CpuExecutable e = (CpuExecutable) CpuCheck.CPU.compile(p)) {
      // sum(x*x), rsqrt(sum/64 + eps), and the scaled output.
      assertEquals(3, e.kernelCount(), e.describe());
    }
    Random rng = new Random(2);
    CpuCheck.matches(
        p,
        Tensors.uniform(rng, DType.F32, s, -1, 1),
        Tensors.uniform(rng, DType.F32, Shape.of(64), 0.5, 1.5));
  }

  @Test
  void transposedWeightIsAGemmFlagNotACopy() {
    GraphBuilder g = new GraphBuilder("linear");
    Node x = g.parameter("x", DType.F32, Shape.of(16, 32));
    Node w = g.parameter("w", DType.F32, Shape.of(24, 32));
    Node y = g.matmul(x, g.transpose(w, 1, 0));
    Program p = g.build(y);
    try (CpuExecutable e = (CpuExecutable) CpuCheck.CPU.compile(p)) {
      assertEquals(1, e.kernelCount(), e.describe());
      assertTrue(e.describe().contains(" T ld=32"), e.describe());
    }
  }

  @Test
  void longChainsReuseAFewSlots() {
    GraphBuilder g = new GraphBuilder("chain");
    Node x = g.parameter("x", DType.F32, Shape.of(64, 64));
    Node w = g.parameter("w", DType.F32, Shape.of(64, 64));
    Node h = x;
    for (int i = 0; i < 20; i++) {
      h = g.tanh(g.matmul(h, w));
    }
    Program p = g.build(h);
    try (CpuExecutable e = (CpuExecutable) CpuCheck.CPU.compile(p)) {
      // 20 products and 19 stored tanh values: ping-pong between two arrays.
      assertTrue(e.describe().contains("slots: 2 holding 8192"), e.describe());
    }
    Random rng = new Random(3);
    CpuCheck.matches(
        p,
        Tensors.uniform(rng, DType.F32, Shape.of(64, 64), -1, 1),
        Tensors.uniform(rng, DType.F32, Shape.of(64, 64), -0.2, 0.2));
  }

  @Test
  void openedThroughTheServiceLoader() {
    try (Device d = Devices.open("cpu")) {
      assertInstanceOf(CpuDevice.class, d);
      assertEquals("cpu", d.name());
    }
  }
}
