package dev.javelin.backend.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.javelin.backend.DType;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.reference.ReferenceDevice;
import dev.javelin.backend.testing.Tensors;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * One device shared by several threads (a sampler and a trainer in one JVM), each running its own
 * executable: the worker pool, buffer pool and BLAS calls must not mix them up.
 */
class ConcurrencyTest {

  private static Program mlp(int seed) {
    GraphBuilder g = new GraphBuilder("mlp_" + seed);
    Node x = g.parameter("x", DType.F32, Shape.of(96, 64));
    Node w = g.parameter("w", DType.F32, Shape.of(64, 64));
    Node h = g.tanh(g.matmul(x, w));
    Node s = g.reduceSum(g.exp(h), 1);
    return g.build(g.matmul(h, w), s);
  }

  @Test
  void executablesRunConcurrently() throws Exception {
    ExecutorService callers = Executors.newFixedThreadPool(3);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 3; t++) {
        int seed = t;
        done.add(
            callers.submit(
                () -> {
                  Program p = mlp(seed);
                  Random rng = new Random(seed);
                  List<Tensor> in =
                      List.of(
                          Tensors.uniform(rng, DType.F32, Shape.of(96, 64), -1, 1),
                          Tensors.uniform(rng, DType.F32, Shape.of(64, 64), -0.2, 0.2));
                  List<Tensor> want = ReferenceDevice.evaluate(p, in);
                  try (Executable e = CpuCheck.CPU.compile(p)) {
                    for (int r = 0; r < 20; r++) {
                      List<Tensor> got = CpuCheck.runCpu(e, in);
                      for (int i = 0; i < want.size(); i++) {
                        Tensors.assertClose(want.get(i), got.get(i), CpuCheck.F32_TOL, p.name());
                      }
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      assertEquals(3, done.size());
    } finally {
      callers.shutdownNow();
    }
  }
}
