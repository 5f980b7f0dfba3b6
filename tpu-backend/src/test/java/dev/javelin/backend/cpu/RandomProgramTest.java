package dev.javelin.backend.cpu;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op.Direction;
import dev.javelin.backend.testing.Tensors;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Whole random programs (elementwise chains, broadcasts of reductions, transposes, slices, matrix
 * products, shared subexpressions) on the cpu device against the reference device. Random DAGs
 * exercise fusion decisions and buffer reuse in combinations no hand-written test lists.
 */
class RandomProgramTest {

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
  void randomProgramMatchesReference(int seed) {
    Random rng = new Random(seed);
    int b = 1 + rng.nextInt(3);
    int t = 1 + rng.nextInt(40);
    int d = 1 + rng.nextInt(70);
    Shape s = Shape.of(b, t, d);
    GraphBuilder g = new GraphBuilder("random_" + seed);
    List<Node> pool = new ArrayList<>();
    List<Tensor> inputs = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      pool.add(g.parameter("x" + i, DType.F32, s));
      inputs.add(Tensors.uniform(rng, DType.F32, s, -1, 1));
    }
    Node w = g.parameter("w", DType.F32, Shape.of(d, d));
    inputs.add(Tensors.uniform(rng, DType.F32, Shape.of(d, d), -0.3, 0.3));
    for (int step = 0; step < 25; step++) {
      pool.add(randomOp(g, rng, pool, w, s));
    }
    List<Node> outs = new ArrayList<>();
    outs.add(pool.get(pool.size() - 1));
    for (int i = 0; i < 3; i++) {
      outs.add(pool.get(2 + rng.nextInt(pool.size() - 2)));
    }
    CpuCheck.matches(g.build(outs), CpuCheck.F32_TOL, inputs);
  }

  /** One op over pool values of shape s, bounded so long chains stay in range. */
  private static Node randomOp(GraphBuilder g, Random rng, List<Node> pool, Node w, Shape s) {
    Node x = pool.get(rng.nextInt(pool.size()));
    Node y = pool.get(rng.nextInt(pool.size()));
    return switch (rng.nextInt(12)) {
      case 0 -> g.tanh(g.add(x, y));
      case 1 -> g.mul(x, y);
      case 2 -> g.sub(g.max(x, y), g.min(x, y));
      case 3 -> g.logistic(g.neg(x));
      case 4 -> g.select(g.compare(x, y, Direction.GT), x, g.abs(y));
      case 5 -> {
        Node m = g.reduceMax(x, 2);
        Node e = g.exp(g.sub(x, g.broadcastInDim(m, s, 0, 1)));
        yield g.div(e, g.broadcastInDim(g.reduceSum(e, 2), s, 0, 1));
      }
      case 6 -> g.tanh(g.matmul(x, w));
      case 7 -> g.transpose(g.transpose(x, 1, 0, 2), 1, 0, 2);
      case 8 -> {
        Node col = g.reduceSum(x, 0, 1);
        Node scale = g.broadcastInDim(col, s, 2);
        yield g.tanh(g.mul(y, scale));
      }
      case 9 -> {
        int cut = rng.nextInt(s.dim(2) + 1);
        Node lo = g.sliceAxis(x, 2, 0, cut);
        Node hi = g.sliceAxis(y, 2, cut, s.dim(2));
        yield cut == 0 ? hi : cut == s.dim(2) ? lo : g.concatenate(2, List.of(lo, hi));
      }
      case 10 -> {
        Node flat = g.reshape(g.add(x, g.full(x, 0.5)), s.dim(0) * s.dim(1), s.dim(2));
        yield g.reshape(g.mul(flat, flat), s);
      }
      default -> {
        Node r =
            g.rsqrt(
                g.add(
                    g.reduceSum(g.mul(x, x), 2),
                    g.constant(1, DType.F32, Shape.of(s.dim(0), s.dim(1)))));
        yield g.mul(x, g.broadcastInDim(r, s, 0, 1));
      }
    };
  }
}
