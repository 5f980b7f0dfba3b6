package dev.javelin.backend.stablehlo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Autodiff;
import dev.javelin.backend.graph.Barriers;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.graph.VjpPrograms;
import dev.javelin.backend.reference.ReferenceDevice;
import dev.javelin.backend.testing.Tensors;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-block recomputation survives XLA: under {@link Remat#BLOCKS} each recomputed block reads its
 * inputs through an optimization barrier, so XLA:CPU's buffer assignment holds far fewer temporary
 * bytes than with every activation kept, where the same program without its barriers lets XLA merge
 * the recomputation back into the forward values.
 */
public class RematFenceXlaTest {
  private static final int LAYERS = 8;

  @TempDir Path dir;

  /**
   * sum(h²) after {@code layers} residual blocks h += tanh(h W1ᵀ) W2ᵀ, one recomputation segment
   * each.
   */
  public static Program loss(int layers, int rows, int width, int inner) {
    GraphBuilder g = new GraphBuilder("blocks");
    Node h = g.parameter("x", DType.F32, Shape.of(rows, width));
    for (int i = 0; i < layers; i++) {
      Node w1 = g.parameter("w1." + i, DType.F32, Shape.of(inner, width));
      Node w2 = g.parameter("w2." + i, DType.F32, Shape.of(width, inner));
      g.beginSegment();
      Node u = g.tanh(g.matmulTransposed(h, w1));
      h = g.add(h, g.matmulTransposed(g.mul(u, u), w2));
      g.endSegment(h);
    }
    return g.build(g.reduceSum(g.mul(h, h), 0, 1));
  }

  public static List<String> weights(Program p) {
    List<String> names = new ArrayList<>();
    for (Node n : p.parameters()) {
      names.add(((Op.Parameter) n.op()).name());
    }
    return names;
  }

  @Test
  void fencedBlocksLowerAndMatchOnXlaCpu() throws Exception {
    Program loss = loss(LAYERS, 64, 32, 256);
    List<String> wrt = weights(loss);
    Program none = Autodiff.gradientProgram(loss, wrt, Remat.NONE);
    Program blocks = Autodiff.gradientProgram(loss, wrt, Remat.BLOCKS);
    long fences =
        blocks.nodes().stream()
            .filter(n -> n.op() instanceof Op.OptimizationBarrier b && b.index() == 0)
            .count();
    // The last block's backward runs right after its forward: it is recomputed too, fenced alike.
    assertEquals(LAYERS, fences, "one fence per recomputed block");
    String text = StableHloPrinter.print(blocks);
    assertEquals(LAYERS, text.split("stablehlo.optimization_barrier", -1).length - 1, text);

    Random rng = new Random(3);
    List<Tensor> args = new ArrayList<>();
    for (Node p : loss.parameters()) {
      args.add(Tensors.uniform(rng, DType.F32, p.shape(), -0.2, 0.2));
    }
    List<Tensor> expected = ReferenceDevice.evaluate(none, args);
    List<Tensor> refBlocks = ReferenceDevice.evaluate(blocks, args);
    // The host-loss split: the fenced backward reads its barrier operands as residuals.
    VjpPrograms split = Autodiff.vjp(loss, wrt, Set.of(0), Remat.BLOCKS);
    List<Tensor> splitArgs =
        split.backwardArguments(
            args, ReferenceDevice.evaluate(split.forward(), args), List.of(Tensor.scalar(1f)));
    assertTrue(
        split.backward().nodes().stream().anyMatch(n -> n.op() instanceof Op.OptimizationBarrier),
        "the split backward recomputes behind barriers");
    Map<String, XlaCpuScript.Result> out =
        XlaCpuScript.fromSystemProperty()
            .run(
                List.of(
                    new XlaCpuScript.Case("none", none, args),
                    new XlaCpuScript.Case("blocks", blocks, args),
                    new XlaCpuScript.Case("unfenced", Barriers.strip(blocks), args),
                    new XlaCpuScript.Case("split_backward", split.backward(), splitArgs)),
                dir);
    for (String name : List.of("none", "blocks", "unfenced")) {
      assertNull(out.get(name).error(), name);
      for (int i = 0; i < expected.size(); i++) {
        Tensors.assertClose(expected.get(i), out.get(name).outputs().get(i), 1e-5, name + " " + i);
        Tensors.assertClose(expected.get(i), refBlocks.get(i), 1e-6, "ref blocks " + i);
      }
    }
    XlaCpuScript.Result splitOut = out.get("split_backward");
    assertNull(splitOut.error(), "split_backward");
    for (int i = 1; i < expected.size(); i++) {
      Tensors.assertClose(
          expected.get(i), splitOut.outputs().get(i - 1), 1e-5, "split backward grad " + i);
    }
  }
}
