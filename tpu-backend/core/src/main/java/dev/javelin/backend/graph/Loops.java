package dev.javelin.backend.graph;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Unrolls {@link Loop}s for devices that run the graph as written ({@code cpu}, {@code ref}): each
 * loop becomes {@code trips} copies of its {@link Loop#step} program, the counter bound to a
 * constant, so these devices run exactly the slicing and stacking that the compiled {@code while}
 * runs, and stay an oracle for it.
 */
public final class Loops {
  private Loops() {}

  /** {@code program} itself when it has no loop, else a copy with every loop unrolled. */
  public static Program unroll(Program program) {
    Program p = program;
    while (any(p)) {
      p = unrollOnce(p); // a loop body may itself hold loops
    }
    return p;
  }

  /**
   * Whether {@code n} is a loop's stacked per-iteration output (n, B, ...) of values its body marks
   * {@linkplain Node#batchMajor batch-major}: the batch is its dimension 1.
   */
  public static boolean stackedBatchMajor(Node n) {
    return n.op() instanceof Op.LoopResult r
        && r.index() >= r.loop().carried()
        && r.loop().body().outputs().get(r.index()).batchMajor();
  }

  /** Whether {@code p} holds a loop. */
  public static boolean any(Program p) {
    return p.nodes().stream().anyMatch(n -> n.op() instanceof Op.LoopResult);
  }

  private record Key(Loop loop, List<Node> operands) {}

  private static Program unrollOnce(Program program) {
    GraphBuilder g = new GraphBuilder(program.name());
    GraphCopier copier = new GraphCopier(g);
    copier.bindParameters(program);
    Map<Key, List<Node>> unrolled = new HashMap<>();
    for (Node n : program.nodes()) {
      if (n.op() instanceof Op.LoopResult r) {
        List<Node> operands = copier.copyAll(n.inputs());
        List<Node> results =
            unrolled.computeIfAbsent(
                new Key(r.loop(), operands), k -> unrollLoop(g, k.loop(), k.operands()));
        copier.bind(n, results.get(r.index()));
      } else if (!(n.op() instanceof Op.Parameter)) {
        copier.copy(n);
      }
    }
    Program copy = g.build(copier.copyAll(program.outputs()));
    return program.sharding().map(copy::withSharding).orElse(copy);
  }

  /** The loop's results: its step copied {@code trips} times, from zero stacked outputs. */
  static List<Node> unrollLoop(GraphBuilder g, Loop loop, List<Node> operands) {
    int c = loop.carried();
    List<Node> state = new ArrayList<>();
    state.add(null); // the counter, bound per iteration
    state.addAll(operands.subList(0, c));
    for (int r = c; r < loop.results(); r++) {
      state.add(g.constant(0, loop.dtype(r), loop.shape(r)));
    }
    state.addAll(operands.subList(c, operands.size()));
    Program step = loop.step();
    for (int t = 0; t < loop.trips(); t++) {
      state.set(0, g.constant(t, DType.I32, Shape.scalar()));
      GraphCopier copier = new GraphCopier(g);
      for (int k = 0; k < state.size(); k++) {
        copier.bind(step.parameters().get(k), state.get(k));
      }
      state = new ArrayList<>(copier.copyAll(step.outputs()));
    }
    return List.copyOf(state.subList(1, 1 + loop.results()));
  }
}
