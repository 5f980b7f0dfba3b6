package dev.javelin.backend.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Guards the op set: a new primitive op needs a reference kernel, a VJP rule and a
 * finite-difference test in {@link OpGradientTest} before it joins this list.
 */
class OpCoverageTest {
  private static final Set<String> DIFFERENTIATED =
      Set.of(
          "Parameter",
          "Constant",
          "Iota",
          "Unary",
          "Binary",
          "Compare",
          "Select",
          "Convert",
          "BroadcastInDim",
          "Reduce",
          "Reshape",
          "Transpose",
          "DotGeneral",
          "Slice",
          "Concatenate",
          "DynamicUpdateSlice",
          "UpdateSlots",
          "DynamicSlice",
          "Gather",
          "ScatterAdd",
          "OptimizationBarrier",
          "LoopResult");

  @Test
  void everyOpHasAVjpRuleAndAGradientCheck() {
    Set<String> ops =
        Arrays.stream(Op.class.getPermittedSubclasses())
            .map(Class::getSimpleName)
            .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(
        new TreeSet<>(DIFFERENTIATED),
        ops,
        "the op set changed: add the new op's reference kernel, VJP rule and gradient check");
  }
}
