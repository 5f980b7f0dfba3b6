package dev.javelin.backend.stablehlo;

import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.spmd.Gspmd;
import dev.javelin.backend.spmd.Mesh;
import dev.javelin.backend.spmd.ProgramSharding;
import dev.javelin.backend.spmd.Sharding;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * every weight version) and outputs the results in order. A sharded program's arguments and results
 * carry {@code mhlo.sharding} attributes and the module its partition count. Each graph node lowers
 * to one StableHLO op, plus scalar helper constants where an op needs them (reduction identities,
 * scatter zeros); a {@link dev.javelin.backend.graph.Loop} lowers to one {@code stablehlo.while}
 * ({@link LoopOps}).
 */
public final class StableHloPrinter {
  private StableHloPrinter() {}

  /** The module text for {@code program}; its entry function is {@code @main}. */
  public static String print(Program program) {
    Optional<ProgramSharding> sharding = program.sharding();
    FunctionBody body = new FunctionBody(sharding);
    List<Node> params = program.parameters();
    for (int i = 0; i < params.size(); i++) {
      body.bindParameter(params.get(i), i);
    }
    emitAll(program.nodes(), body);
    List<Node> outs = program.outputs();
    body.line(
        "return "
            + outs.stream().map(body::name).collect(Collectors.joining(", "))
            + " : "
            + FunctionBody.types(outs));
    List<String> args = new ArrayList<>();
    for (int i = 0; i < params.size(); i++) {
      Node p = params.get(i);
      int at = i;
      args.add(
          body.name(p)
              + ": "
              + FunctionBody.type(p)
              + sharding.map(s -> shardingAttr(s.parameters(), at, p, s.mesh())).orElse(""));
    }
    List<String> results = new ArrayList<>();
    for (int i = 0; i < outs.size(); i++) {
      Node o = outs.get(i);
      int at = i;
      results.add(
          FunctionBody.type(o)
              + sharding.map(s -> shardingAttr(s.outputs(), at, o, s.mesh())).orElse(""));
    }
    String moduleAttrs =
        sharding
            .map(
                s ->
                    " attributes {mhlo.num_partitions = "
                        + s.mesh().size()
                        + " : i32, mhlo.num_replicas = 1 : i32}")
            .orElse("");
    return "module @"
        + moduleName(program.name())
        + moduleAttrs
        + " {\n  func.func public @main("
        + String.join(", ", args)
        + ") -> ("
        + String.join(", ", results)
        + ") {\n"
        + body.text()
        + "  }\n}\n";
  }

  /**
   * The {@code mhlo.sharding} attribute of one argument or result: GSPMD text, which XLA's SPMD
   * partitioner reads on every plugin version we bind (Shardy's {@code sdy.sharding} needs {@code
   * use_shardy_partitioner} and a newer plugin).
   */
  private static String shardingAttr(List<Sharding> shardings, int i, Node n, Mesh mesh) {
    return " {mhlo.sharding = \"" + Gspmd.format(shardings.get(i), mesh, n.shape().rank()) + "\"}";
  }

  /**
   * Emits every node but the parameters (already bound), pinning batch-major values to the batch
   * split in a sharded program: the function body and each loop body alike.
   */
  static void emitAll(List<Node> nodes, FunctionBody f) {
    for (Node n : nodes) {
      if (!(n.op() instanceof Op.Parameter)) {
        emit(n, f);
        if (n.batchMajor() && f.sharding().isPresent()) {
          constrain(n, f.sharding().get(), f);
        }
      }
    }
  }

  /**
   * Pins a batch-major activation to the batch axis with a sharding constraint (what {@code
   * jax.lax.with_sharding_constraint} emits): later uses of {@code n} read the constrained value.
   */
  private static void constrain(Node n, ProgramSharding s, FunctionBody f) {
    s.batchMajor(n.shape())
        .ifPresent(
            split -> {
              String pinned = f.fresh("pin");
              String type = FunctionBody.type(n);
              f.line(
                  pinned
                      + " = stablehlo.custom_call @Sharding("
                      + f.name(n)
                      + ") {mhlo.sharding = \""
                      + Gspmd.format(split, s.mesh(), n.shape().rank())
                      + "\"} : ("
                      + type
                      + ") -> "
                      + type);
              f.bind(n, pinned);
            });
  }

  /** A bare MLIR symbol: letters, digits and underscores, not starting with a digit. */
  static String moduleName(String programName) {
    String s = programName.replaceAll("[^A-Za-z0-9_]", "_");
    return s.isEmpty() || Character.isDigit(s.charAt(0)) ? "p_" + s : s;
  }

  /** How nodes of one op record lower: appends the StableHLO of {@code n} to {@code f}. */
  @FunctionalInterface
  private interface Lowering<O extends Op> {
    void emit(Node n, O op, FunctionBody f);
  }

  /**
   * Every op record's lowering, keyed by its class (records are final, so the class is exact). A
   * parameter has none: it is bound, not emitted.
   */
  private static final Map<Class<?>, Lowering<Op>> LOWERINGS =
      Map.ofEntries(
          lowering(Op.Constant.class, DenseOps::constant),
          lowering(Op.Iota.class, DenseOps::iota),
          lowering(Op.Unary.class, DenseOps::unary),
          lowering(Op.Binary.class, DenseOps::binary),
          lowering(Op.Compare.class, DenseOps::compare),
          lowering(Op.Select.class, (n, op, f) -> DenseOps.select(n, f)),
          lowering(Op.Convert.class, (n, op, f) -> DenseOps.convert(n, f)),
          lowering(Op.BroadcastInDim.class, DenseOps::broadcastInDim),
          lowering(Op.Reduce.class, DenseOps::reduce),
          lowering(Op.Reshape.class, (n, op, f) -> DenseOps.reshape(n, f)),
          lowering(Op.Transpose.class, DenseOps::transpose),
          lowering(Op.DotGeneral.class, DenseOps::dotGeneral),
          lowering(Op.Concatenate.class, DenseOps::concatenate),
          lowering(
              Op.OptimizationBarrier.class,
              (n, op, f) -> f.barrierResult(n, n.inputs(), op.index())),
          lowering(Op.LoopResult.class, LoopOps::loopResult),
          lowering(Op.Slice.class, IndexingOps::slice),
          lowering(Op.DynamicSlice.class, IndexingOps::dynamicSlice),
          lowering(Op.DynamicUpdateSlice.class, (n, op, f) -> IndexingOps.dynamicUpdateSlice(n, f)),
          lowering(Op.UpdateSlots.class, IndexingOps::updateSlots),
          lowering(Op.Gather.class, (n, op, f) -> IndexingOps.gather(n, f)),
          lowering(Op.ScatterAdd.class, (n, op, f) -> IndexingOps.scatterAdd(n, f)));

  private static <O extends Op> Map.Entry<Class<?>, Lowering<Op>> lowering(
      Class<O> type, Lowering<O> lowering) {
    return Map.entry(type, (n, op, f) -> lowering.emit(n, type.cast(op), f));
  }

  static void emit(Node n, FunctionBody f) {
    Op op = n.op();
    Lowering<Op> lowering = LOWERINGS.get(op.getClass());
    if (lowering == null) {
      // A new Op record without a lowering is a bug here, not bad input.
      throw new IllegalStateException("no StableHLO lowering for " + op.getClass().getSimpleName());
    }
    lowering.emit(n, op, f);
  }
}
