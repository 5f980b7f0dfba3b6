package dev.javelin.backend;

import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op;
import dev.javelin.backend.graph.Program;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which parameters a program may overwrite with which outputs (input/output aliasing), so that a
 * train step updates weights and optimizer state in place, and a decode step writes its KV cache in
 * place, instead of allocating a second copy. A device that aliases (XLA) consumes a donated
 * argument: the buffer is closed by the run. A device that does not (cpu) leaves it intact. Either
 * way the caller must not read a donated argument after the run, and may close it (closing a
 * consumed buffer is a no-op).
 *
 * @param aliases parameter index to output index; shapes and types must match
 */
public record Donation(Map<Integer, Integer> aliases) {

  public Donation {
    aliases = Map.copyOf(aliases);
  }

  /** No aliasing. */
  public static Donation none() {
    return new Donation(Map.of());
  }

  /**
   * Donates each named parameter to the output at the given index, validated against {@code
   * program}.
   *
   * @param byName parameter name to output index
   */
  public static Donation byName(Program program, Map<String, Integer> byName) {
    Map<String, Integer> param = parameterIndex(program);
    Map<Integer, Integer> aliases = new HashMap<>();
    byName.forEach(
        (name, out) -> {
          Integer p = param.get(name);
          if (p == null) {
            throw new IllegalArgumentException(
                "program '" + program.name() + "' has no parameter '" + name + "' to donate");
          }
          aliases.put(p, out);
        });
    return new Donation(aliases).validate(program);
  }

  /** Checks indices, shapes and types against the program; returns this. */
  public Donation validate(Program program) {
    List<Node> params = program.parameters();
    List<Node> outs = program.outputs();
    Set<Integer> used = new HashSet<>();
    for (Map.Entry<Integer, Integer> e : aliases.entrySet()) {
      int p = e.getKey();
      int o = e.getValue();
      if (p < 0 || p >= params.size() || o < 0 || o >= outs.size()) {
        throw new IllegalArgumentException(
            "donation " + p + " -> " + o + " is out of range for " + program.name());
      }
      if (!used.add(o)) {
        throw new IllegalArgumentException(
            "output " + o + " is aliased twice in " + program.name());
      }
      Node in = params.get(p);
      Node out = outs.get(o);
      if (!in.shape().equals(out.shape()) || in.dtype() != out.dtype()) {
        throw new IllegalArgumentException(
            "cannot donate parameter " + p + " (" + in + ") to output " + o + " (" + out + ")");
      }
    }
    return this;
  }

  /** Whether argument {@code parameter} is donated. */
  public boolean donates(int parameter) {
    return aliases.containsKey(parameter);
  }

  private static Map<String, Integer> parameterIndex(Program program) {
    Map<String, Integer> index = new HashMap<>();
    List<Node> params = program.parameters();
    for (int i = 0; i < params.size(); i++) {
      index.put(((Op.Parameter) params.get(i).op()).name(), i);
    }
    return index;
  }
}
