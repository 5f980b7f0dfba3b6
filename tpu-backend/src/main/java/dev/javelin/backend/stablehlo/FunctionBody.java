package dev.javelin.backend.stablehlo;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.Node;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The body of {@code @main} being written: SSA value names for nodes, fresh names for helper values
 * (reduction inits, scatter zeros), and the text lines. Parameter {@code i} is {@code %argI}; every
 * other node is {@code %vID}, so names never collide with region block arguments.
 */
final class FunctionBody {
  private static final String INDENT = "    ";
  private final StringBuilder text = new StringBuilder();
  private final Map<Node, String> names = new HashMap<>();
  private final Map<List<Node>, String> barriers = new HashMap<>();
  private int fresh;

  void bindParameter(Node n, int index) {
    names.put(n, "%arg" + index);
  }

  /** The SSA name of a node, assigning {@code %vID} on first use. */
  String name(Node n) {
    return names.computeIfAbsent(n, k -> "%v" + k.id());
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
    return "%" + prefix + fresh++;
  }

  /** Appends one op line, indented inside the function. */
  void line(String op) {
    text.append(INDENT).append(op).append('\n');
  }

  /** Appends the lines of a region (already indented relative to its op). */
  void regionLine(String op) {
    text.append(INDENT).append("  ").append(op).append('\n');
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
