package dev.javelin.backend.graph;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.spmd.ProgramSharding;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A finished, immutable static-shape program: its parameters (in argument order), its outputs, and
 * every node reachable from the outputs in topological (creation) order. Devices compile programs;
 * the StableHLO printer prints them as {@code func.func @main}. A program may carry a {@link
 * ProgramSharding}: how its arguments and results lie on a device mesh.
 */
public final class Program {
  private final String name;
  private final List<Node> parameters;
  private final List<Node> outputs;
  private final List<Node> nodes;
  private final ProgramSharding sharding; // null: one device

  Program(String name, List<Node> parameters, List<Node> outputs) {
    if (outputs.isEmpty()) {
      throw new IllegalArgumentException("program '" + name + "' has no outputs");
    }
    this.name = name;
    this.parameters = List.copyOf(parameters);
    this.outputs = List.copyOf(outputs);
    this.nodes = reachable(this.parameters, this.outputs);
    this.sharding = null;
  }

  private Program(Program p, ProgramSharding sharding) {
    this.name = p.name;
    this.parameters = p.parameters;
    this.outputs = p.outputs;
    this.nodes = p.nodes;
    this.sharding = sharding;
  }

  /** The same graph with its arguments and results laid out by {@code sharding} (checked). */
  public Program withSharding(ProgramSharding sharding) {
    sharding.check(name, shapes(parameters), shapes(outputs));
    return new Program(this, sharding);
  }

  /** How arguments and results lie on a mesh; empty for a single-device program. */
  public Optional<ProgramSharding> sharding() {
    return Optional.ofNullable(sharding);
  }

  private static List<Shape> shapes(List<Node> nodes) {
    return nodes.stream().map(Node::shape).toList();
  }

  private static List<Node> reachable(List<Node> parameters, List<Node> outputs) {
    Set<Node> seen = new HashSet<>(parameters);
    List<Node> order = new ArrayList<>(parameters);
    List<Node> stack = new ArrayList<>(outputs);
    while (!stack.isEmpty()) {
      Node n = stack.remove(stack.size() - 1);
      if (seen.add(n)) {
        order.add(n);
        stack.addAll(n.inputs());
      }
    }
    order.sort(Comparator.comparingInt(Node::id));
    return List.copyOf(order);
  }

  public String name() {
    return name;
  }

  /** Parameters in argument order; parameter i has {@code Op.Parameter.index() == i}. */
  public List<Node> parameters() {
    return parameters;
  }

  public List<Node> outputs() {
    return outputs;
  }

  /** All nodes, parameters included, in a topological order. */
  public List<Node> nodes() {
    return nodes;
  }

  /** The parameter with the given name. */
  public Node parameter(String paramName) {
    for (Node p : parameters) {
      if (((Op.Parameter) p.op()).name().equals(paramName)) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "program '" + name + "' has no parameter '" + paramName + "'");
  }

  /**
   * Throws unless a value of {@code dtype} and {@code shape} fits parameter {@code i}: the check,
   * and the message, of every place that binds arguments to a program.
   */
  public void checkArgument(int i, DType dtype, Shape shape) {
    Node p = parameters.get(i);
    if (p.dtype() != dtype || !p.shape().equals(shape)) {
      throw new IllegalArgumentException(
          "argument "
              + i
              + " ('"
              + ((Op.Parameter) p.op()).name()
              + "') of program '"
              + name
              + "' must be "
              + p.dtype().mlirName()
              + p.shape()
              + ", got "
              + dtype.mlirName()
              + shape);
    }
  }

  @Override
  public String toString() {
    return "Program[" + name + ", " + parameters.size() + " params, " + nodes.size() + " nodes]";
  }
}
