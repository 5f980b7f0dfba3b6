package dev.javelin.backend.stablehlo;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Autodiff;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op.Direction;
import dev.javelin.backend.stablehlo.XlaCpuScript.Case;
import dev.javelin.backend.testing.Tensors;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Whole programs: an MLP forward with a softmax cross-entropy loss, and its train step (loss,
 * gradients by {@link Autodiff}, an SGD update) in one program.
 */
final class ProgramCases {
  private static final int B = 4;
  private static final int IN = 6;
  private static final int HID = 8;
  private static final int OUT = 5;

  private ProgramCases() {}

  static List<Case> all() {
    List<Case> cases = new ArrayList<>();
    cases.add(mlpLoss(false));
    cases.add(mlpLoss(true));
    return cases;
  }

  /**
   * x (B, IN) -> tanh(x W1 + b1) W2 -> log-softmax -> mean NLL of labels; with {@code train}, also
   * the SGD step {@code w - lr * dL/dw} for every weight.
   */
  static Case mlpLoss(boolean train) {
    Random rng = new Random(7);
    GraphBuilder g = new GraphBuilder(train ? "mlp_sgd_step" : "mlp_loss");
    Node x = g.parameter("x", DType.F32, Shape.of(B, IN));
    Node labels = g.parameter("labels", DType.I32, Shape.of(B));
    Node w1 = g.parameter("w1", DType.F32, Shape.of(IN, HID));
    Node b1 = g.parameter("b1", DType.F32, Shape.of(HID));
    Node w2 = g.parameter("w2", DType.F32, Shape.of(HID, OUT));
    Node h = g.tanh(g.add(g.matmul(x, w1), g.broadcastTo(b1, Shape.of(B, HID))));
    Node logits = g.matmul(h, w2); // (B, OUT)
    Node logp = logSoftmax(g, logits);
    Node onehot =
        g.convert(
            g.compare(
                g.iota(DType.I32, Shape.of(B, OUT), 1),
                g.broadcastInDim(labels, Shape.of(B, OUT), 0),
                Direction.EQ),
            DType.F32);
    Node loss = g.div(g.neg(g.reduceSum(g.mul(onehot, logp), 0, 1)), g.scalar(B));
    List<Node> outputs = new ArrayList<>(List.of(loss, logp));
    if (train) {
      Node lr = g.parameter("lr", DType.F32, Shape.scalar());
      List<Node> weights = List.of(w1, b1, w2);
      List<Node> grads = Autodiff.gradient(g, loss, weights);
      for (int i = 0; i < weights.size(); i++) {
        Node w = weights.get(i);
        outputs.add(grads.get(i));
        outputs.add(g.sub(w, g.mul(g.broadcastTo(lr, w.shape()), grads.get(i))));
      }
    }
    List<Tensor> inputs =
        new ArrayList<>(
            List.of(
                Tensors.random(rng, DType.F32, B, IN),
                Tensors.randomInts(rng, OUT, B),
                Tensors.random(rng, DType.F32, IN, HID),
                Tensors.random(rng, DType.F32, HID),
                Tensors.random(rng, DType.F32, HID, OUT)));
    if (train) {
      inputs.add(Tensor.scalar(0.1f));
    }
    return new Case("program_" + g.name(), g.build(outputs), inputs);
  }

  /** log softmax over the last axis of (B, N), max-shifted. */
  static Node logSoftmax(GraphBuilder g, Node logits) {
    Shape s = logits.shape();
    Node max = g.broadcastInDim(g.reduceMax(logits, 1), s, 0);
    Node shifted = g.sub(logits, max);
    Node lse = g.log(g.reduceSum(g.exp(shifted), 1));
    return g.sub(shifted, g.broadcastInDim(lse, s, 0));
  }
}
