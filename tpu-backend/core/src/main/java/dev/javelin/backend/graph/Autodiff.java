package dev.javelin.backend.graph;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reverse-mode automatic differentiation over the program graph.
 *
 * <p>Given outputs {@code y_j = f_j(x)} and cotangents {@code ȳ_j}, the vector-Jacobian product is
 * {@code x̄ = Σ_j ȳ_j · ∂y_j/∂x}. It is built by walking the graph backwards from the outputs and
 * applying each op's VJP rule ({@link VjpRules}), summing the cotangents of nodes with several
 * consumers. Backward nodes are added to the same {@link GraphBuilder}, so one program can hold a
 * loss, its gradients and an optimizer update. Only nodes on a path from {@code wrt} to the outputs
 * are differentiated; integer and boolean values carry no cotangent.
 *
 * <p>For losses computed on the host, {@link #vjp(Program, List)} splits a program into a forward
 * program that also returns residuals and a backward program from (residuals, ȳ) to x̄.
 */
public final class Autodiff {
  private Autodiff() {}

  /**
   * Gradients {@code ∂loss/∂w} for each {@code w} in {@code wrt}, added to {@code g}.
   *
   * @param loss a floating scalar node of {@code g}
   * @return one node per {@code wrt} entry, of its shape and type (zeros when the loss does not
   *     depend on it)
   */
  public static List<Node> gradient(GraphBuilder g, Node loss, List<Node> wrt) {
    return gradient(g, loss, wrt, Remat.NONE);
  }

  /** {@link #gradient(GraphBuilder, Node, List)} with a rematerialisation policy. */
  public static List<Node> gradient(GraphBuilder g, Node loss, List<Node> wrt, Remat remat) {
    if (loss.shape().rank() != 0 || !loss.dtype().isFloating()) {
      throw new IllegalArgumentException("gradient needs a floating scalar loss, got " + loss);
    }
    return vjp(g, List.of(loss), List.of(g.full(loss, 1)), wrt, remat);
  }

  /**
   * The vector-Jacobian product {@code x̄ = Σ_j ȳ_j · ∂y_j/∂x} for each {@code x} in {@code wrt}.
   *
   * @param outputs floating nodes {@code y_j}
   * @param cotangents one node {@code ȳ_j} per output, of its shape and type
   */
  public static List<Node> vjp(
      GraphBuilder g, List<Node> outputs, List<Node> cotangents, List<Node> wrt) {
    return vjp(g, outputs, cotangents, wrt, Remat.NONE);
  }

  /** {@link #vjp(GraphBuilder, List, List, List)} with a rematerialisation policy. */
  public static List<Node> vjp(
      GraphBuilder g, List<Node> outputs, List<Node> cotangents, List<Node> wrt, Remat remat) {
    if (outputs.size() != cotangents.size()) {
      throw new IllegalArgumentException(
          outputs.size() + " outputs but " + cotangents.size() + " cotangents");
    }
    List<Node> order = ancestors(outputs);
    Set<Node> active = active(order, wrt);
    Cotangents ct = new Cotangents(g);
    for (int j = 0; j < outputs.size(); j++) {
      Node y = outputs.get(j);
      Node dy = cotangents.get(j);
      if (!dy.shape().equals(y.shape()) || dy.dtype() != y.dtype()) {
        throw new IllegalArgumentException("cotangent " + dy + " does not match output " + y);
      }
      if (active.contains(y)) {
        ct.add(y, dy);
      }
    }
    Map<List<Object>, Node[]> loops = loopResults(order);
    for (int k = order.size() - 1; k >= 0; k--) {
      Node n = order.get(k);
      Node dn = ct.get(n);
      if (dn == null) {
        continue;
      }
      if (n.batchMajor() && dn.shape().rank() > 0) {
        dn.markBatchMajor(); // the cotangent of a batch-split activation is batch-split too
      }
      if (n.inputs().isEmpty() || n.gradientStopped()) {
        continue;
      }
      boolean[] need = new boolean[n.inputs().size()];
      for (int i = 0; i < need.length; i++) {
        need[i] = active.contains(n.input(i));
      }
      Node[] contributions;
      if (n.op() instanceof Op.LoopResult r) {
        Node[] results = loops.remove(loopKey(r, n));
        if (results == null) {
          continue; // its loop's backward already ran, for a later result
        }
        contributions = loopVjp(g, r.loop(), n.inputs(), results, ct, need);
      } else {
        contributions = VjpRules.apply(g, n, dn, need);
      }
      for (int i = 0; i < need.length; i++) {
        if (need[i] && contributions[i] != null) {
          ct.add(n.input(i), contributions[i]);
        }
      }
    }
    List<Node> grads = new ArrayList<>();
    for (Node w : wrt) {
      Node dw = ct.get(w);
      grads.add(dw != null ? dw : g.full(w, 0));
    }
    return Rematerializer.apply(g, withLoopSiblings(g, order), grads, remat);
  }

  /**
   * The results of each loop among {@code order}, by loop and operands. A loop's results have
   * consecutive ids and no node between them reads one, so when the walk back meets the last of
   * them every result's cotangent is complete: its backward runs once, for all of them.
   */
  private static Map<List<Object>, Node[]> loopResults(List<Node> order) {
    Map<List<Object>, Node[]> out = new HashMap<>();
    for (Node n : order) {
      if (n.op() instanceof Op.LoopResult r) {
        out.computeIfAbsent(loopKey(r, n), key -> new Node[r.loop().results()])[r.index()] = n;
      }
    }
    return out;
  }

  private static List<Object> loopKey(Op.LoopResult r, Node n) {
    List<Object> key = new ArrayList<>();
    key.add(r.loop());
    key.addAll(n.inputs());
    return key;
  }

  private static Node[] loopVjp(
      GraphBuilder g,
      Loop loop,
      List<Node> operands,
      Node[] results,
      Cotangents ct,
      boolean[] need) {
    Node[] dys = new Node[results.length];
    for (int i = 0; i < results.length; i++) {
      boolean live = results[i] != null && !results[i].gradientStopped();
      dys[i] = live ? ct.get(results[i]) : null;
    }
    Node[] out = new Node[operands.size()];
    LoopVjp.apply(g, loop, operands, dys, need, out);
    return out;
  }

  /**
   * The forward nodes with every result of their loops: a scan's gradient reads the loop's saved
   * carries, which no forward output uses but which the forward loop computes, so they are forward
   * values to keep, not backward values to rewrite (which would run the loop again).
   */
  private static Set<Node> withLoopSiblings(GraphBuilder g, List<Node> order) {
    Set<Node> forward = new HashSet<>(order);
    for (Node n : order) {
      if (n.op() instanceof Op.LoopResult r) {
        for (int i = 0; i < r.loop().results(); i++) {
          Op.LoopResult ri = new Op.LoopResult(r.loop(), i);
          forward.add(g.add(ri, n.inputs(), r.loop().shape(i), r.loop().dtype(i)));
        }
      }
    }
    return forward;
  }

  /**
   * Splits {@code forward} for a loss computed outside the graph; see {@link VjpPrograms}.
   *
   * @param wrtNames names of floating parameters of {@code forward} to differentiate
   */
  public static VjpPrograms vjp(Program forward, List<String> wrtNames) {
    Set<Integer> floating = new TreeSet<>();
    for (int i = 0; i < forward.outputs().size(); i++) {
      if (forward.outputs().get(i).dtype().isFloating()) {
        floating.add(i);
      }
    }
    return VjpSplit.split(forward, wrtNames, floating, Remat.NONE);
  }

  /**
   * Like {@link #vjp(Program, List)}, but only the listed outputs take a cotangent; the others are
   * treated as constants of the loss, which prunes their backward work (an entropy output whose
   * coefficient is zero, say).
   *
   * @param differentiated indices of floating outputs of {@code forward}
   */
  public static VjpPrograms vjp(
      Program forward, List<String> wrtNames, Set<Integer> differentiated) {
    return vjp(forward, wrtNames, differentiated, Remat.NONE);
  }

  /**
   * Like {@link #vjp(Program, List, Set)}, with a rematerialisation policy: under {@link
   * Remat#ELEMENTWISE} far fewer residuals cross from the forward to the backward program.
   */
  public static VjpPrograms vjp(
      Program forward, List<String> wrtNames, Set<Integer> differentiated, Remat remat) {
    return VjpSplit.split(forward, wrtNames, new TreeSet<>(differentiated), remat);
  }

  /**
   * A program with the same parameters that returns {@code loss}'s outputs followed by the gradient
   * of output 0 (a floating scalar) with respect to each named parameter.
   */
  public static Program gradientProgram(Program loss, List<String> wrtNames) {
    return gradientProgram(loss, wrtNames, Remat.NONE);
  }

  /** {@link #gradientProgram(Program, List)} with a rematerialisation policy. */
  public static Program gradientProgram(Program loss, List<String> wrtNames, Remat remat) {
    GraphBuilder g = new GraphBuilder(loss.name() + ".grad");
    GraphCopier copier = new GraphCopier(g);
    copier.bindParameters(loss);
    List<Node> outputs = new ArrayList<>(copier.copyAll(loss.outputs()));
    List<Node> wrt = new ArrayList<>();
    for (String name : wrtNames) {
      wrt.add(copier.copy(loss.parameter(name)));
    }
    outputs.addAll(gradient(g, outputs.get(0), wrt, remat));
    return g.build(outputs);
  }

  /** Every node the outputs depend on, in topological (id) order. */
  static List<Node> ancestors(List<Node> outputs) {
    return ancestors(outputs, Set.of());
  }

  /** Ancestors of the outputs, not looking past (nor including) nodes in {@code stop}. */
  static List<Node> ancestors(List<Node> outputs, Set<Node> stop) {
    Set<Node> seen = new HashSet<>();
    List<Node> stack = new ArrayList<>(outputs);
    while (!stack.isEmpty()) {
      Node n = stack.remove(stack.size() - 1);
      if (!stop.contains(n) && seen.add(n)) {
        stack.addAll(n.inputs());
      }
    }
    List<Node> order = new ArrayList<>(seen);
    order.sort(Comparator.comparingInt(Node::id));
    return order;
  }

  /** Floating nodes that depend on some {@code wrt} node through differentiable ops. */
  private static Set<Node> active(List<Node> order, List<Node> wrt) {
    for (Node w : wrt) {
      if (!w.dtype().isFloating()) {
        throw new IllegalArgumentException("cannot differentiate with respect to " + w);
      }
    }
    Set<Node> wrtSet = new HashSet<>(wrt);
    Set<Node> active = new HashSet<>();
    for (Node n : order) {
      if (wrtSet.contains(n)) {
        active.add(n);
      } else if (n.dtype().isFloating() && !n.gradientStopped()) {
        for (Node in : n.inputs()) {
          if (active.contains(in)) {
            active.add(n);
            break;
          }
        }
      }
    }
    return active;
  }
}
