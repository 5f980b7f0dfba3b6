package dev.javelin.backend.xla;

import static dev.javelin.backend.xla.ScannedLayersTest.count;
import static dev.javelin.backend.xla.ScannedLayersTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.HeadLogits;
import dev.javelin.backend.batch.TokenStats;
import dev.javelin.backend.graph.Autodiff;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.model.NeuralOps;
import dev.javelin.backend.stablehlo.StableHloPrinter;
import dev.javelin.backend.testing.RelError;
import dev.javelin.backend.testing.Tensors;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The LM head as one loop over vocabulary blocks, run on {@code ref}, {@code cpu} and {@code
 * xla:cpu}: log-probs, entropies and the gradients of a loss of both with respect to the hidden
 * states and the head's rows equal the whole head's on {@code ref}, with the loop's logits
 * recomputed or kept for the gradient and with and without a soft cap.
 */
class VocabLoopTest {
  private static final double TOL = 2e-5;
  private static final int B = 2;
  private static final int T = 5;
  private static final int D = 8;
  private static final int V = 96;
  @RegisterExtension static final OracleDevices DEVICES = new OracleDevices();

  @Test
  void loopOverVocabularyBlocksEqualsTheWholeHeadOnEveryDevice() {
    for (double cap : new double[] {0, 2.5}) {
      List<Tensor> args = inputs();
      List<Tensor> want = run(DEVICES.ref(), program(0, cap, HeadLogits.RECOMPUTE), args);
      for (int blocks : new int[] {2, 3, 8}) {
        for (HeadLogits keep : HeadLogits.values()) {
          Program looped = program(blocks, cap, keep);
          String text = StableHloPrinter.print(looped);
          // one loop for the forward, one for the gradient
          assertEquals(2, count(text, "\"stablehlo.while\""));
          for (Device d : DEVICES.all()) {
            List<Tensor> got = run(d, looped, args);
            for (int i = 0; i < want.size(); i++) {
              String what =
                  d + ", cap " + cap + ", " + keep + ", " + blocks + " blocks, output " + i;
              RelError.assertClose(what, want.get(i), got.get(i), TOL);
            }
          }
        }
      }
    }
  }

  /**
   * Kept logits save the gradient one product per block: the backward's matrix products are the two
   * of the head's gradient, where recomputing the logits adds a third.
   */
  @Test
  void keptLogitsLeaveTheBackwardTwoProductsPerBlock() {
    assertEquals(
        4, count(StableHloPrinter.print(program(3, 0, HeadLogits.RECOMPUTE)), "dot_general"));
    assertEquals(3, count(StableHloPrinter.print(program(3, 0, HeadLogits.KEEP)), "dot_general"));
  }

  /**
   * [logp, entropy, ∂loss/∂hidden, ∂loss/∂rows] for the loss Σ (0.3·H − logp) · mask; the head in
   * {@code blocks} loop blocks, or whole for 0, its logits soft-capped at {@code cap} (0: none).
   */
  private static Program program(int blocks, double cap, HeadLogits keep) {
    GraphBuilder g = new GraphBuilder("vocab_loop");
    Node hidden = g.parameter("hidden", DType.F32, Shape.of(B, T, D));
    Node rows = g.parameter("rows", DType.F32, Shape.of(V, D));
    Node ids = g.parameter("ids", DType.I32, Shape.of(B, T));
    Node temp = g.parameter("temperature", DType.F32, Shape.scalar());
    Node mask = g.parameter("mask", DType.F32, Shape.of(B, T - 1));
    TokenStats.BlockLogits head =
        (b, x, r) -> NeuralOps.softcap(b, NeuralOps.matmulTransposed(b, x, r, DType.F32), cap);
    TokenStats st =
        blocks == 0
            ? TokenStats.of(g, head.logits(g, hidden, rows), ids, temp)
            : TokenStats.ofHiddenLooped(g, hidden, rows, head, ids, temp, blocks, keep);
    Node perToken = g.sub(g.mul(st.entropy(), g.full(st.entropy(), 0.3)), st.logp());
    Node loss = g.reduceSum(g.mul(mask, perToken), 0, 1);
    List<Node> outs = new ArrayList<>(List.of(st.logp(), st.entropy()));
    outs.addAll(Autodiff.gradient(g, loss, List.of(hidden, rows)));
    return g.build(outs);
  }

  private static List<Tensor> inputs() {
    Random rng = new Random(5);
    int[] ids = new int[B * T];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = rng.nextInt(V);
    }
    return List.of(
        Tensors.uniform(rng, DType.F32, Shape.of(B, T, D), -1, 1),
        Tensors.uniform(rng, DType.F32, Shape.of(V, D), -1, 1),
        new Tensor.I32(Shape.of(B, T), ids),
        new Tensor.F32(Shape.scalar(), new float[] {0.7f}),
        Tensors.uniform(rng, DType.F32, Shape.of(B, T - 1), 0, 1));
  }
}
