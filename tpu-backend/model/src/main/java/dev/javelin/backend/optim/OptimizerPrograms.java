package dev.javelin.backend.optim;

import dev.javelin.backend.DType;
import dev.javelin.backend.Donation;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Standalone optimizer programs over named tensors: the AdamW update and gradient accumulation
 * across micro-batches. Parameter names: weights by their own name, {@code grad.<name>}, {@code
 * m.<name>}, {@code v.<name>}, {@code acc.<name>}, and the scalars {@value #LR} and {@value #STEP}.
 */
public final class OptimizerPrograms {
  public static final String LR = "lr";
  public static final String STEP = "step";

  private OptimizerPrograms() {}

  public static String grad(String name) {
    return "grad." + name;
  }

  public static String firstMoment(String name) {
    return "m." + name;
  }

  public static String secondMoment(String name) {
    return "v." + name;
  }

  public static String accumulator(String name) {
    return "acc." + name;
  }

  /**
   * AdamW over {@code params} (name to shape, in order). Parameters: every weight, then every grad,
   * m, v, then lr and step. Outputs: [grad norm, applied, new weights..., new m..., new v...].
   */
  public static Program adamW(Map<String, Shape> params, AdamWConfig cfg) {
    GraphBuilder g = new GraphBuilder("adamw_" + params.size());
    List<Node> w = declare(g, params, n -> n);
    List<Node> gr = declare(g, params, OptimizerPrograms::grad);
    List<Node> m = declare(g, params, OptimizerPrograms::firstMoment);
    List<Node> v = declare(g, params, OptimizerPrograms::secondMoment);
    Node lr = g.parameter(LR, DType.F32, Shape.scalar());
    Node step = g.parameter(STEP, DType.F32, Shape.scalar());
    return g.build(outputs(AdamWGraph.apply(g, w, gr, m, v, lr, step, cfg)));
  }

  /** The outputs of an update in the documented order. */
  public static List<Node> outputs(AdamWGraph.Update u) {
    List<Node> outs = new ArrayList<>();
    outs.add(u.gradNorm());
    outs.add(u.applied());
    outs.addAll(u.weights());
    outs.addAll(u.m());
    outs.addAll(u.v());
    return outs;
  }

  /**
   * {@code acc.<name> + grad.<name>} for every tensor: one micro-batch's gradients added into the
   * running sum. Parameters: every acc, then every grad. Outputs: the new sums, in order.
   */
  public static Program accumulate(Map<String, Shape> params) {
    GraphBuilder g = new GraphBuilder("accumulate_" + params.size());
    List<Node> acc = declare(g, params, OptimizerPrograms::accumulator);
    List<Node> gr = declare(g, params, OptimizerPrograms::grad);
    List<Node> outs = new ArrayList<>();
    for (int i = 0; i < acc.size(); i++) {
      outs.add(g.add(acc.get(i), gr.get(i)));
    }
    return g.build(outs);
  }

  /**
   * Donates every weight, m and v of an update program to its new value, so that the step
   * overwrites the model and the optimizer state in place. The update's outputs start at {@code
   * first}: new weights at {@code first + i}, m at {@code first + n + i}, v at {@code first + 2n +
   * i} for the i-th of the n {@code names} (2 for {@link #adamW}, 3 for a fused train step that
   * returns its loss first).
   */
  public static Donation inPlaceUpdate(Program program, List<String> names, int first) {
    int n = names.size();
    Map<String, Integer> byName = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String w = names.get(i);
      byName.put(w, first + i);
      byName.put(firstMoment(w), first + n + i);
      byName.put(secondMoment(w), first + 2 * n + i);
    }
    return Donation.byName(program, byName);
  }

  /** Donates each running sum of an {@link #accumulate} program to its new value. */
  public static Donation inPlaceAccumulate(Program program, List<String> names) {
    Map<String, Integer> byName = new LinkedHashMap<>();
    for (int i = 0; i < names.size(); i++) {
      byName.put(accumulator(names.get(i)), i);
    }
    return Donation.byName(program, byName);
  }

  private static List<Node> declare(
      GraphBuilder g, Map<String, Shape> params, UnaryOperator<String> naming) {
    List<Node> out = new ArrayList<>();
    for (Map.Entry<String, Shape> e : params.entrySet()) {
      out.add(g.parameter(naming.apply(e.getKey()), DType.F32, e.getValue()));
    }
    return out;
  }

  /** Name to shape, in iteration order, for building the programs above. */
  public static Map<String, Shape> shapes(
      Map<String, ? extends dev.javelin.backend.Tensor> tensors) {
    Map<String, Shape> out = new LinkedHashMap<>();
    tensors.forEach((k, t) -> out.put(k, t.shape()));
    return out;
  }
}
