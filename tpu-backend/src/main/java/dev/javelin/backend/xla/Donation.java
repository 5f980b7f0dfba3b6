package dev.javelin.backend.xla;

import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.optim.OptimizerPrograms;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which parameters a program may overwrite with which outputs (XLA input/output aliasing), so that
 * a train step updates weights and optimizer state in place instead of allocating a second copy of
 * the model. A donated argument buffer is consumed by the run: it is closed afterwards.
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
   * The fused train step's layout ({@code TrainPrograms.fused}): outputs are [loss, grad norm,
   * applied, new weights..., new m..., new v...] in {@code weightNames} order, and each weight and
   * moment is donated to its update.
   */
  public static Donation fusedTrainStep(Program program, List<String> weightNames) {
    Map<String, Integer> param = parameterIndex(program);
    int n = weightNames.size();
    Map<Integer, Integer> aliases = new HashMap<>();
    for (int w = 0; w < n; w++) {
      String name = weightNames.get(w);
      aliases.put(require(param, name), 3 + w);
      aliases.put(require(param, OptimizerPrograms.firstMoment(name)), 3 + n + w);
      aliases.put(require(param, OptimizerPrograms.secondMoment(name)), 3 + 2 * n + w);
    }
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

  /**
   * Marks each donated argument of the printed {@code @main} with {@code tf.aliasing_output}, the
   * attribute XLA's StableHLO import turns into the module's input/output alias config.
   */
  String annotate(String moduleText, Program program) {
    if (aliases.isEmpty()) {
      return moduleText;
    }
    int start = moduleText.indexOf("func.func public @main(");
    int end = moduleText.indexOf(") -> (", start);
    if (start < 0 || end < 0) {
      throw new IllegalStateException("unexpected StableHLO header in " + program.name());
    }
    String header = moduleText.substring(start, end);
    for (Map.Entry<Integer, Integer> e : new TreeMap<>(aliases).entrySet()) {
      Node p = program.parameters().get(e.getKey());
      String arg = "%arg" + e.getKey() + ": " + p.shape().mlirType(p.dtype());
      int at = header.indexOf(arg + ",");
      if (at < 0 && header.endsWith(arg)) {
        at = header.length() - arg.length();
      }
      if (at < 0) {
        throw new IllegalStateException(
            "cannot find " + arg + " in the header of " + program.name());
      }
      int cut = at + arg.length();
      header =
          header.substring(0, cut)
              + " {tf.aliasing_output = "
              + e.getValue()
              + " : i32}"
              + header.substring(cut);
    }
    return moduleText.substring(0, start) + header + moduleText.substring(end);
  }

  private static Map<String, Integer> parameterIndex(Program program) {
    Map<String, Integer> index = new HashMap<>();
    List<Node> params = program.parameters();
    for (int i = 0; i < params.size(); i++) {
      index.put(((Op.Parameter) params.get(i).op()).name(), i);
    }
    return index;
  }

  private static int require(Map<String, Integer> param, String name) {
    Integer i = param.get(name);
    if (i == null) {
      throw new IllegalArgumentException("the train step has no parameter '" + name + "'");
    }
    return i;
  }
}
