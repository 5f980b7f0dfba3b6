package dev.javelin.backend.stablehlo;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.spmd.ProgramSharding;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The body of {@code @main} being written: SSA value names for nodes, fresh names for helper values
 * (reduction inits, scatter zeros), and the text lines. Parameter {@code i} is {@code %argI}; every
 * other node is {@code %vID}, so names never collide with region block arguments. A sharded
 * program's body, and every region in it, also knows the program's sharding (for the constraints on
 * batch-major values, loop bodies included).
 */
final class FunctionBody {
  private static final String INDENT = "    ";
  private final StringBuilder text = new StringBuilder();
  private final Map<Node, String> names = new HashMap<>();
  private final Map<List<Node>, String> barriers = new HashMap<>();
  private final Map<List<Object>, String> loops = new HashMap<>();
  private final String prefix;
  private final String indent;
  private final Optional<ProgramSharding> sharding;
  private int fresh;

  FunctionBody(Optional<ProgramSharding> sharding) {
    this("", INDENT, sharding);
  }

  private FunctionBody(String prefix, String indent, Optional<ProgramSharding> sharding) {
    this.prefix = prefix;
    this.indent = indent;
    this.sharding = sharding;
  }

  /** The sharding of the program this body belongs to; empty for a one-device program. */
  Optional<ProgramSharding> sharding() {
    return sharding;
  }

  /**
   * The body of a region nested in this one: its names start with {@code prefix}, since a region
   * sees (and so may not redefine) the names around it.
   */
  FunctionBody region(String regionPrefix) {
    return new FunctionBody(prefix + regionPrefix, indent + "  ", sharding);
  }

  void bindParameter(Node n, int index) {
    names.put(n, "%arg" + index);
  }

  /** Names {@code n} {@code name} (a region's block argument). */
  void bind(Node n, String name) {
    names.put(n, name);
  }

  /** The SSA name of a node, assigning {@code %vID} on first use. */
  String name(Node n) {
    return names.computeIfAbsent(n, k -> "%" + prefix + "v" + k.id());
  }

  /**
   * Names {@code n} as result {@code index} of the op {@code key} stands for, printing that op with
   * {@code print} (which returns its SSA name) on first use: all results of one loop share one op.
   */
  void groupResult(Node n, List<Object> key, int index, java.util.function.Supplier<String> print) {
    String group = loops.get(key);
    if (group == null) {
      group = print.get();
      loops.put(key, group);
    }
    names.put(n, group + "#" + index);
  }

  /**
   * Names {@code n} as result {@code index} of the optimization barrier over {@code operands},
   * printing that barrier on first use: the fenced values of one group share one op.
   */
  void barrierResult(Node n, List<Node> operands, int index) {
    String group = barriers.get(operands);
    if (group == null) {
      group = fresh("fence");
      line(
          group
              + ":"
              + operands.size()
              + " = stablehlo.optimization_barrier "
              + operands(n)
              + " : "
              + types(operands));
      barriers.put(operands, group);
    }
    names.put(n, group + "#" + index);
  }

  /** The operand names of a node, comma separated. */
  String operands(Node n) {
    return n.inputs().stream().map(this::name).collect(Collectors.joining(", "));
  }

  /** A new SSA name for a helper value, e.g. {@code %init3}. */
  String fresh(String prefix) {
    return "%" + this.prefix + prefix + fresh++;
  }

  /** Appends one op line, indented inside the function. */
  void line(String op) {
    text.append(indent).append(op).append('\n');
  }

  /** Appends a line at this body's indentation less one step (a region's block header). */
  void outdentedLine(String op) {
    text.append(indent, 0, indent.length() - 2).append(op).append('\n');
  }

  /** Appends lines already written by a nested region. */
  void append(FunctionBody region) {
    text.append(region.text);
  }

  /** Appends the lines of a region (already indented relative to its op). */
  void regionLine(String op) {
    text.append(indent).append("  ").append(op).append('\n');
  }

  String text() {
    return text.toString();
  }

  // ------------------------------------------------------------------ types

  static String type(Node n) {
    return n.shape().mlirType(n.dtype());
  }

  static String scalarType(DType dtype) {
    return Shape.scalar().mlirType(dtype);
  }

  /** {@code (t0, t1) -> r}: the functional type of a node's op. */
  static String functionalType(Node n) {
    return "(" + types(n.inputs()) + ") -> " + type(n);
  }

  static String types(List<Node> nodes) {
    return nodes.stream().map(FunctionBody::type).collect(Collectors.joining(", "));
  }

  /** {@code [0, 2]}: a dimension list in pretty syntax. */
  static String dims(int[] dims) {
    return Arrays.stream(dims)
        .mapToObj(Integer::toString)
        .collect(Collectors.joining(", ", "[", "]"));
  }

  /** {@code array<i64: 0, 2>}: a dense i64 array attribute in generic syntax. */
  static String i64Array(int[] values) {
    if (values.length == 0) {
      return "array<i64>";
    }
    return Arrays.stream(values)
        .mapToObj(Integer::toString)
        .collect(Collectors.joining(", ", "array<i64: ", ">"));
  }
}
