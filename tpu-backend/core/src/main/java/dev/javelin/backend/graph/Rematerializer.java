package dev.javelin.backend.graph;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rewrites backward nodes so that the forward values a {@link Remat} policy recomputes are read
 * from fresh copies instead of the originals. Copies are shared (one per forward value) and made at
 * their first backward use, so a device running nodes in id order recomputes each value just before
 * it is needed.
 *
 * <p>A recomputed segment ({@link Remat#BLOCKS}) reads everything it takes from outside, weights
 * included, through one {@link Op.OptimizationBarrier} that also holds the cotangent which first
 * asked for it, as {@code jax.checkpoint} does: without the fence XLA sees that the recomputation
 * equals the forward values, merges the two and holds the forward values until the backward after
 * all; with it, the recomputation can neither be merged nor start before the backward reaches it.
 */
final class Rematerializer {
  private final GraphBuilder g;
  private final Set<Node> forward;
  private final Remat policy;
  private final Map<Node, Node> replaced = new HashMap<>();
  private final Map<Integer, Map<Node, Node>> fences = new HashMap<>();
  private Map<Integer, List<Node>> members;
  private Node trigger; // the backward value whose node is being rewritten first needs a recompute

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
    trigger = null;
    for (Node in : n.inputs()) {
      if (trigger == null && !forward.contains(in)) {
        trigger = replaced.getOrDefault(in, in);
      }
    }
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
        if (!fenced(top, in) && policy.recomputes(in) && !replaced.containsKey(in)) {
          stack.add(in);
          ready = false;
        }
      }
      if (ready) {
        stack.remove(stack.size() - 1);
        List<Node> inputs = new ArrayList<>(top.inputs().size());
        for (Node in : top.inputs()) {
          if (fenced(top, in)) {
            inputs.add(fence(top.segment()).get(in));
          } else {
            inputs.add(policy.recomputes(in) ? replaced.get(in) : in);
          }
        }
        replaced.put(top, g.add(top.op(), inputs, top.shape(), top.dtype()));
      }
    }
    return replaced.get(f);
  }

  /** The recomputed forward nodes of each segment, in id order (grouped once). */
  private Map<Integer, List<Node>> members() {
    if (members == null) {
      List<Node> sorted = new ArrayList<>(forward);
      sorted.sort(Comparator.comparingInt(Node::id));
      members = new HashMap<>();
      for (Node f : sorted) {
        if (f.segment() >= 0 && policy.recomputes(f)) {
          members.computeIfAbsent(f.segment(), k -> new ArrayList<>()).add(f);
        }
      }
    }
    return members;
  }

  /** Whether recomputed {@code reader} reads {@code in} through its segment's fence. */
  private boolean fenced(Node reader, Node in) {
    int s = reader.segment();
    return policy == Remat.BLOCKS
        && s >= 0
        && policy.recomputes(reader)
        && (in.segment() != s || in.op() instanceof Op.Parameter);
  }

  /**
   * Segment {@code s}'s fence, built on first use: each value its recomputed nodes read from
   * outside (recomputed itself where the policy says so) mapped to the barrier's copy of it.
   */
  private Map<Node, Node> fence(int s) {
    Map<Node, Node> done = fences.get(s);
    if (done != null) {
      return done;
    }
    Node cause = trigger;
    List<Node> outside = new ArrayList<>();
    Set<Node> seen = new HashSet<>();
    for (Node f : members().getOrDefault(s, List.of())) {
      for (Node in : f.inputs()) {
        if (fenced(f, in) && seen.add(in)) {
          outside.add(in);
        }
      }
    }
    List<Node> operands = new ArrayList<>(outside.size() + 1);
    for (Node in : outside) {
      operands.add(recomputed(in));
    }
    if (cause != null) {
      operands.add(cause);
    }
    Map<Node, Node> map = new HashMap<>();
    if (!operands.isEmpty()) {
      List<Node> through = g.optimizationBarrier(operands);
      for (int i = 0; i < outside.size(); i++) {
        map.put(outside.get(i), through.get(i));
      }
    }
    fences.put(s, map);
    return map;
  }
}
