package dev.javelin.backend.runtime;

import dev.javelin.backend.graph.Loops;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op;
import dev.javelin.backend.graph.VjpPrograms;
import dev.javelin.backend.program.ShardPlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How a split train step's values lie on a mesh ({@link ShardPlan}): the forward's results and the
 * backward's residual parameters, so that each residual keeps one layout from the program that
 * returns it to the one that reads it.
 */
final class SplitRoles {
  private SplitRoles() {}

  /**
   * What each {@code residual.k} of the split's backward carries, for its mesh layout: the forward
   * argument's name, or the forward result's role ({@link #forward}).
   */
  static Map<String, String> residuals(VjpPrograms split) {
    Map<String, String> roles = new HashMap<>();
    List<Node> fwdParams = split.forward().parameters();
    List<String> results = forward(split);
    for (int k = 0; k < split.residuals().size(); k++) {
      VjpPrograms.Residual r = split.residuals().get(k);
      roles.put(
          VjpPrograms.residualName(k),
          r.source() == VjpPrograms.Residual.Source.ARGUMENT
              ? ((Op.Parameter) fwdParams.get(r.index()).op()).name()
              : results.get(r.index()));
    }
    return roles;
  }

  /**
   * The role of each of the split's forward results for its mesh layout: a loop's stacked
   * batch-major values (a scan's saved carries, a vocabulary loop's kept logits) lie split on their
   * batch dimension ({@link ShardPlan#STACKED_ACTIVATIONS}); the rest are unnamed (dimension 0 over
   * the batch).
   */
  static List<String> forward(VjpPrograms split) {
    List<String> roles = new ArrayList<>();
    for (Node o : split.forward().outputs()) {
      roles.add(Loops.stackedBatchMajor(o) ? ShardPlan.STACKED_ACTIVATIONS : null);
    }
    return roles;
  }
}
