package dev.javelin.backend.graph;

import dev.javelin.backend.graph.VjpPrograms.Residual;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Splits a program into forward-with-residuals and backward programs. The VJP is first built in a
 * scratch graph holding the forward nodes, cotangent parameters and backward nodes; the residuals
 * are the forward values the backward nodes read. Values computable from constants alone (masks
 * from iota, for instance) are recomputed in the backward program instead of being passed.
 */
final class VjpSplit {
  private final Program source;
  private final GraphBuilder scratch;
  private final List<Node> outputs;
  private final List<Node> cotangents = new ArrayList<>();
  private final List<Integer> cotangentOutputs = new ArrayList<>();
  private final Map<String, Node> parameters = new HashMap<>();
  private int firstBackwardId;

  private VjpSplit(Program source) {
    this.source = source;
    this.scratch = new GraphBuilder(source.name() + ".vjp");
    GraphCopier copier = new GraphCopier(scratch);
    for (Node p : source.parameters()) {
      String name = ((Op.Parameter) p.op()).name();
      Node copy = scratch.parameter(name, p.dtype(), p.shape());
      copier.bind(p, copy);
      parameters.putIfAbsent(name, copy);
    }
    this.outputs = copier.copyAll(source.outputs());
  }

  static VjpPrograms split(
      Program source, List<String> wrtNames, Set<Integer> differentiated, Remat remat) {
    for (int i : differentiated) {
      if (i < 0 || i >= source.outputs().size() || !source.outputs().get(i).dtype().isFloating()) {
        throw new IllegalArgumentException(
            "output " + i + " of '" + source.name() + "' is not a floating output");
      }
    }
    return new VjpSplit(source).run(wrtNames, differentiated, remat);
  }

  private VjpPrograms run(List<String> wrtNames, Set<Integer> differentiated, Remat remat) {
    List<Node> wrt = new ArrayList<>();
    for (String name : wrtNames) {
      wrt.add(scratchParameter(name));
    }
    List<Node> floating = new ArrayList<>();
    firstBackwardId = -1;
    for (int i = 0; i < outputs.size(); i++) {
      Node y = outputs.get(i);
      if (differentiated.contains(i)) {
        Node dy = scratch.parameter("cotangent." + i, y.dtype(), y.shape());
        firstBackwardId = firstBackwardId < 0 ? dy.id() : firstBackwardId;
        floating.add(y);
        cotangents.add(dy);
        cotangentOutputs.add(i);
      }
    }
    if (floating.isEmpty()) {
      throw new IllegalArgumentException("no output of '" + source.name() + "' to differentiate");
    }
    List<Node> grads = Autodiff.vjp(scratch, floating, cotangents, wrt, remat);
    List<Node> residualNodes = residuals(grads);
    return assemble(residualNodes, grads, wrtNames);
  }

  private Node scratchParameter(String name) {
    Node p = parameters.get(name);
    if (p == null) {
      throw new IllegalArgumentException(
          "program '" + source.name() + "' has no parameter '" + name + "'");
    }
    return p;
  }

  /**
   * Forward values read by backward nodes (or returned as gradients), in id order. Values the
   * backward program can rebuild cheaply are not passed: anything computed from constants alone,
   * one-pass values of arguments (a one-hot of the shifted token ids, an embedding lookup), and
   * broadcasts and reshapes, which are re-done from their (never larger) operand. Arguments
   * themselves are residuals at no cost: the caller passes its own buffers again.
   */
  private List<Node> residuals(List<Node> grads) {
    Set<Node> gradSet = new HashSet<>(grads);
    Set<Node> constant = new HashSet<>();
    Set<Node> rebuilt = new HashSet<>();
    Deque<Node> pending = new ArrayDeque<>();
    for (Node n : Autodiff.ancestors(grads)) { // topological, so inputs are classified first
      if (isForward(n)) {
        classify(n, constant, rebuilt);
        if (gradSet.contains(n)) {
          pending.add(n);
        }
      } else {
        for (Node in : n.inputs()) {
          if (isForward(in)) {
            pending.add(in);
          }
        }
      }
    }
    Set<Node> visited = new HashSet<>();
    List<Node> result = new ArrayList<>();
    while (!pending.isEmpty()) {
      Node r = pending.pop();
      if (!visited.add(r)) {
        continue;
      }
      if (rebuilt.contains(r)
          || r.op() instanceof Op.BroadcastInDim
          || r.op() instanceof Op.Reshape) {
        pending.addAll(r.inputs());
      } else {
        result.add(r);
      }
    }
    result.sort(Comparator.comparingInt(Node::id));
    return result;
  }

  /**
   * Adds forward node {@code n} to {@code constant} when it depends on no argument, and to {@code
   * rebuilt} when the backward program can recompute it: constant, or one cheap pass (elementwise,
   * slice, concatenate, transpose, gather) over rebuilt values and arguments.
   */
  private static void classify(Node n, Set<Node> constant, Set<Node> rebuilt) {
    if (n.op() instanceof Op.Parameter) {
      return;
    }
    boolean fromConstants = true;
    boolean fromArguments = true;
    for (Node in : n.inputs()) {
      fromConstants &= constant.contains(in);
      fromArguments &= rebuilt.contains(in) || in.op() instanceof Op.Parameter;
    }
    if (fromConstants) {
      constant.add(n);
    }
    if (fromConstants || (fromArguments && copiesOrMaps(n))) {
      rebuilt.add(n);
    }
  }

  /** Ops whose cost is one pass over their result: elementwise math and layout copies. */
  private static boolean copiesOrMaps(Node n) {
    Op op = n.op();
    return Remat.ELEMENTWISE.recomputes(n)
        || op instanceof Op.Slice
        || op instanceof Op.Concatenate
        || op instanceof Op.Transpose
        || op instanceof Op.Gather;
  }

  private boolean isForward(Node n) {
    return n.id() < firstBackwardId;
  }

  private VjpPrograms assemble(List<Node> residualNodes, List<Node> grads, List<String> wrtNames) {
    List<Residual> residuals = new ArrayList<>();
    List<Node> extraOutputs = new ArrayList<>();
    for (Node r : residualNodes) {
      if (r.op() instanceof Op.Parameter p) {
        residuals.add(new Residual(Residual.Source.ARGUMENT, p.index()));
      } else if (outputs.contains(r)) {
        residuals.add(new Residual(Residual.Source.FORWARD_RESULT, outputs.indexOf(r)));
      } else {
        residuals.add(
            new Residual(Residual.Source.FORWARD_RESULT, outputs.size() + extraOutputs.size()));
        extraOutputs.add(r);
      }
    }
    GraphBuilder fwd = new GraphBuilder(source.name() + ".forward");
    GraphCopier f = new GraphCopier(fwd);
    for (Node p : scratch.build(outputs).parameters().subList(0, source.parameters().size())) {
      f.bind(p, fwd.parameter(((Op.Parameter) p.op()).name(), p.dtype(), p.shape()));
    }
    List<Node> fwdOut = new ArrayList<>(f.copyAll(outputs));
    fwdOut.addAll(f.copyAll(extraOutputs));

    GraphBuilder bwd = new GraphBuilder(source.name() + ".backward");
    GraphCopier b = new GraphCopier(bwd);
    for (int k = 0; k < residualNodes.size(); k++) {
      Node r = residualNodes.get(k);
      b.bind(r, bwd.parameter(VjpPrograms.residualName(k), r.dtype(), r.shape()));
    }
    for (Node dy : cotangents) {
      b.bind(dy, bwd.parameter(((Op.Parameter) dy.op()).name(), dy.dtype(), dy.shape()));
    }
    return new VjpPrograms(
        fwd.build(fwdOut),
        bwd.build(b.copyAll(grads)),
        outputs.size(),
        cotangentOutputs,
        residuals,
        wrtNames);
  }
}
