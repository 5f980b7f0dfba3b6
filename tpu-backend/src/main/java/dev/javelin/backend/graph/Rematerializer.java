package dev.javelin.backend.graph;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rewrites backward nodes so that the forward values a {@link Remat} policy recomputes are read
 * from fresh copies instead of the originals. Copies are shared (one per forward value) and made at
 * their first backward use, so a device running nodes in id order recomputes each value just before
 * it is needed.
 */
final class Rematerializer {
  private final GraphBuilder g;
  private final Set<Node> forward;
  private final Remat policy;
  private final Map<Node, Node> replaced = new HashMap<>();

  private Rematerializer(GraphBuilder g, Set<Node> forward, Remat policy) {
    this.g = g;
    this.forward = forward;
    this.policy = policy;
  }

  /**
   * The gradients rewritten under {@code policy}.
   *
   * @param forward every node of the forward computation; all other ancestors of {@code grads} are
   *     backward nodes
   */
  static List<Node> apply(GraphBuilder g, Set<Node> forward, List<Node> grads, Remat policy) {
    if (policy == Remat.NONE) {
      return grads;
    }
    Rematerializer r = new Rematerializer(g, forward, policy);
    for (Node n : Autodiff.ancestors(grads)) { // topological: inputs are rewritten first
      if (!forward.contains(n)) {
        r.rewriteBackward(n);
      }
    }
    List<Node> out = new ArrayList<>(grads.size());
    for (Node n : grads) {
      out.add(r.replaced.getOrDefault(n, n));
    }
    return out;
  }

  private void rewriteBackward(Node n) {
    List<Node> inputs = new ArrayList<>(n.inputs().size());
    boolean changed = false;
    for (Node in : n.inputs()) {
      Node r = forward.contains(in) ? recomputed(in) : replaced.getOrDefault(in, in);
      changed |= r != in;
      inputs.add(r);
    }
    if (changed) {
      replaced.put(n, g.add(n.op(), inputs, n.shape(), n.dtype()));
    }
  }

  /** The value of forward node {@code f} as the backward pass should read it. */
  private Node recomputed(Node f) {
    if (!policy.recomputes(f)) {
      return f;
    }
    Node done = replaced.get(f);
    if (done != null) {
      return done;
    }
    // Iterative post-order over the recomputed ancestors, so deep chains need no deep stack.
    List<Node> stack = new ArrayList<>();
    stack.add(f);
    while (!stack.isEmpty()) {
      Node top = stack.get(stack.size() - 1);
      if (replaced.containsKey(top)) {
        stack.remove(stack.size() - 1);
        continue;
      }
      boolean ready = true;
      for (Node in : top.inputs()) {
        if (policy.recomputes(in) && !replaced.containsKey(in)) {
          stack.add(in);
          ready = false;
        }
      }
      if (ready) {
        stack.remove(stack.size() - 1);
        List<Node> inputs = new ArrayList<>(top.inputs().size());
        for (Node in : top.inputs()) {
          inputs.add(policy.recomputes(in) ? replaced.get(in) : in);
        }
        replaced.put(top, g.add(top.op(), inputs, top.shape(), top.dtype()));
      }
    }
    return replaced.get(f);
  }
}
