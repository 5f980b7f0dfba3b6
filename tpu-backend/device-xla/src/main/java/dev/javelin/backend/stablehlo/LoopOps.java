package dev.javelin.backend.stablehlo;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.Loop;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op;
import dev.javelin.backend.graph.Program;
import java.util.ArrayList;
import java.util.List;

/**
 * Lowers a {@link Loop} to one {@code stablehlo.while} whose state is {@link Loop#step}'s
 * parameters (trip counter, carries, stacked outputs, stacked inputs, invariants): the condition
 * compares the counter with the trip count and the body is the step program, so XLA compiles the
 * loop body once however many iterations it runs.
 */
final class LoopOps {
  private LoopOps() {}

  static void loopResult(Node n, Op.LoopResult r, FunctionBody f) {
    List<Object> key = new ArrayList<>();
    key.add(r.loop());
    key.addAll(n.inputs());
    f.groupResult(n, key, r.index() + 1, () -> print(r.loop(), n.inputs(), f));
  }

  private static String print(Loop loop, List<Node> operands, FunctionBody f) {
    Program step = loop.step();
    List<Node> state = step.parameters();
    String zero = f.fresh("count");
    f.line(zero + " = stablehlo.constant dense<0> : tensor<i32>");
    List<String> init = new ArrayList<>();
    init.add(zero);
    int c = loop.carried();
    operands.subList(0, c).forEach(o -> init.add(f.name(o)));
    for (int r = c; r < loop.results(); r++) {
      String z = f.fresh("stack");
      DType t = loop.dtype(r);
      f.line(
          z
              + " = stablehlo.constant dense<"
              + MlirLiterals.of(0, t)
              + "> : "
              + loop.shape(r).mlirType(t));
      init.add(z);
    }
    operands.subList(c, operands.size()).forEach(o -> init.add(f.name(o)));
    String w = f.fresh("loop");
    String types = FunctionBody.types(state);
    f.line(w + ":" + state.size() + " = \"stablehlo.while\"(" + String.join(", ", init) + ") ({");
    f.append(condition(loop, state, f.region(w.substring(1) + "c")));
    f.line("}, {");
    f.append(body(step, f.region(w.substring(1) + "b")));
    f.line("}) : (" + types + ") -> (" + types + ")");
    return w;
  }

  private static FunctionBody condition(Loop loop, List<Node> state, FunctionBody r) {
    String counter = blockArgs(state, r);
    String trips = r.fresh("trips");
    String cmp = r.fresh("more");
    String i32 = Shape.scalar().mlirType(DType.I32);
    r.line(trips + " = stablehlo.constant dense<" + loop.trips() + "> : " + i32);
    r.line(
        cmp
            + " = stablehlo.compare LT, "
            + counter
            + ", "
            + trips
            + ", SIGNED : ("
            + i32
            + ", "
            + i32
            + ") -> "
            + Shape.scalar().mlirType(DType.PRED));
    r.line("stablehlo.return " + cmp + " : " + Shape.scalar().mlirType(DType.PRED));
    return r;
  }

  private static FunctionBody body(Program step, FunctionBody r) {
    blockArgs(step.parameters(), r);
    StableHloPrinter.emitAll(step.nodes(), r);
    List<String> outs = new ArrayList<>();
    step.outputs().forEach(o -> outs.add(r.name(o)));
    String types = FunctionBody.types(step.outputs());
    r.line("stablehlo.return " + String.join(", ", outs) + " : " + types);
    return r;
  }

  /** Writes the block header naming {@code params}; returns the first one's name. */
  private static String blockArgs(List<Node> params, FunctionBody r) {
    List<String> args = new ArrayList<>();
    for (Node p : params) {
      String a = r.fresh("a");
      r.bind(p, a);
      args.add(a + ": " + FunctionBody.type(p));
    }
    r.outdentedLine("^bb0(" + String.join(", ", args) + "):");
    return r.name(params.get(0));
  }
}
