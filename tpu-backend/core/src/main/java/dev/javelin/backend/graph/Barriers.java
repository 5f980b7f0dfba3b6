package dev.javelin.backend.graph;

import java.util.ArrayList;
import java.util.List;

/**
 * Removes {@link Op.OptimizationBarrier} fences from a program for devices that run the graph as
 * written ({@code cpu}, {@code ref}): they neither merge equal values nor reorder work, so a fence
 * is the identity there and each fenced value is read from its operand. {@link Loop}s are unrolled
 * first ({@link Loops#unroll}).
 */
public final class Barriers {
  private Barriers() {}

  /** {@code program} itself when it has no fence, else a copy whose fences read their operands. */
  public static Program strip(Program input) {
    Program program = Loops.unroll(input);
    if (program.nodes().stream().noneMatch(n -> n.op() instanceof Op.OptimizationBarrier)) {
      return program;
    }
    GraphBuilder g = new GraphBuilder(program.name());
    GraphCopier copier = new GraphCopier(g);
    copier.bindParameters(program);
    // In id order, so the copy runs its nodes in the original order (the order recomputation and
    // buffer reuse were planned for).
    for (Node n : program.nodes()) {
      if (n.op() instanceof Op.OptimizationBarrier b) {
        copier.bind(n, copier.copy(n.input(b.index())));
      } else if (!(n.op() instanceof Op.Parameter)) {
        copier.copy(n);
      }
    }
    List<Node> outputs = new ArrayList<>(copier.copyAll(program.outputs()));
    Program stripped = g.build(outputs);
    return program.sharding().map(stripped::withSharding).orElse(stripped);
  }
}
