package dev.javelin.backend.stablehlo;

import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op;
import dev.javelin.backend.graph.Program;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Prints a {@link Program} as a StableHLO MLIR module that XLA compiles as is:
 *
 * <pre>{@code
 * module @name {
 *   func.func public @main(%arg0: tensor<4x8xf32>, ...) -> (tensor<4xf32>, ...) {
 *     %v3 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : ...
 *     return %v3, ... : tensor<4xf32>, ...
 *   }
 * }
 * }</pre>
 *
 * Parameters become arguments in program order (weights included, so one compiled module serves
 * every weight version) and outputs the results in order. Each graph node lowers to one StableHLO
 * op, plus scalar helper constants where an op needs them (reduction identities, scatter zeros).
 */
public final class StableHloPrinter {
  private StableHloPrinter() {}

  /** The module text for {@code program}; its entry function is {@code @main}. */
  public static String print(Program program) {
    FunctionBody body = new FunctionBody();
    List<Node> params = program.parameters();
    for (int i = 0; i < params.size(); i++) {
      body.bindParameter(params.get(i), i);
    }
    for (Node n : program.nodes()) {
      if (!(n.op() instanceof Op.Parameter)) {
        emit(n, body);
      }
    }
    List<Node> outs = program.outputs();
    body.line(
        "return "
            + outs.stream().map(body::name).collect(Collectors.joining(", "))
            + " : "
            + FunctionBody.types(outs));
    String args =
        params.stream()
            .map(p -> body.name(p) + ": " + FunctionBody.type(p))
            .collect(Collectors.joining(", "));
    return "module @"
        + moduleName(program.name())
        + " {\n  func.func public @main("
        + args
        + ") -> ("
        + FunctionBody.types(outs)
        + ") {\n"
        + body.text()
        + "  }\n}\n";
  }

  /** A bare MLIR symbol: letters, digits and underscores, not starting with a digit. */
  static String moduleName(String programName) {
    String s = programName.replaceAll("[^A-Za-z0-9_]", "_");
    return s.isEmpty() || Character.isDigit(s.charAt(0)) ? "p_" + s : s;
  }

  private static void emit(Node n, FunctionBody f) {
    Op op = n.op();
    if (op instanceof Op.Constant c) {
      DenseOps.constant(n, c, f);
    } else if (op instanceof Op.Iota i) {
      DenseOps.iota(n, i, f);
    } else if (op instanceof Op.Unary u) {
      DenseOps.unary(n, u, f);
    } else if (op instanceof Op.Binary b) {
      DenseOps.binary(n, b, f);
    } else if (op instanceof Op.Compare c) {
      DenseOps.compare(n, c, f);
    } else if (op instanceof Op.Select) {
      DenseOps.select(n, f);
    } else if (op instanceof Op.Convert) {
      DenseOps.convert(n, f);
    } else if (op instanceof Op.BroadcastInDim b) {
      DenseOps.broadcastInDim(n, b, f);
    } else if (op instanceof Op.Reduce r) {
      DenseOps.reduce(n, r, f);
    } else if (op instanceof Op.Reshape) {
      DenseOps.reshape(n, f);
    } else if (op instanceof Op.Transpose t) {
      DenseOps.transpose(n, t, f);
    } else if (op instanceof Op.DotGeneral d) {
      DenseOps.dotGeneral(n, d, f);
    } else if (op instanceof Op.Concatenate c) {
      DenseOps.concatenate(n, c, f);
    } else {
      emitIndexing(n, op, f);
    }
  }

  private static void emitIndexing(Node n, Op op, FunctionBody f) {
    if (op instanceof Op.Slice s) {
      IndexingOps.slice(n, s, f);
    } else if (op instanceof Op.DynamicSlice d) {
      IndexingOps.dynamicSlice(n, d, f);
    } else if (op instanceof Op.DynamicUpdateSlice) {
      IndexingOps.dynamicUpdateSlice(n, f);
    } else if (op instanceof Op.UpdateSlots u) {
      IndexingOps.updateSlots(n, u, f);
    } else if (op instanceof Op.Gather) {
      IndexingOps.gather(n, f);
    } else if (op instanceof Op.ScatterAdd) {
      IndexingOps.scatterAdd(n, f);
    } else {
      // A new Op record without a lowering is a bug here, not bad input.
      throw new IllegalStateException("no StableHLO lowering for " + op.getClass().getSimpleName());
    }
  }
}
