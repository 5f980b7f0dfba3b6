package dev.javelin.backend.program;

import dev.javelin.backend.DType;
import dev.javelin.backend.Donation;
import dev.javelin.backend.Shape;
import dev.javelin.backend.batch.TokenStats;
import dev.javelin.backend.graph.Autodiff;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.graph.VjpPrograms;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.TokenLoss;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.AdamWGraph;
import dev.javelin.backend.optim.OptimizerPrograms;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Training programs. (a) {@link #fused}: loss over in-graph log-probs, gradients and the AdamW
 * update in one program. (b) {@link #logProbsVjp}: the log-prob program split into a forward that
 * also returns residuals and a backward from cotangents {@code (∂L/∂logp, ∂L/∂H)} to weight
 * gradients, for losses computed on the host; micro-batch gradients are summed with {@link
 * OptimizerPrograms#accumulate} and applied with {@link OptimizerPrograms#adamW}.
 */
public final class TrainPrograms {
  private TrainPrograms() {}

  /**
   * One fused train step. Parameters: weights, input_ids, positions, attention_mask, rope tables,
   * temperature, the loss's own inputs, then m.&lt;name&gt; and v.&lt;name&gt; per weight, lr and
   * step. Outputs: [loss, grad norm, applied, new weights..., new m..., new v...].
   */
  public static Program fused(ModelConfig c, int b, int t, int p, TokenLoss loss, AdamWConfig cfg) {
    return fused(c, b, t, p, loss, cfg, Remat.NONE, DType.F32);
  }

  /**
   * As above, keeping for the backward pass what {@code remat} says, with the model computing in
   * {@code compute} ({@link ModelPrograms#logProbs(ModelConfig, int, int, int, LoraConfig,
   * DType)}): with bf16 the step casts a bf16 copy from the f32 master weights, runs forward and
   * backward on it, and updates the f32 masters and f32 AdamW moments with the f32 gradients that
   * come back through the casts.
   */
  public static Program fused(
      ModelConfig c,
      int b,
      int t,
      int p,
      TokenLoss loss,
      AdamWConfig cfg,
      Remat remat,
      DType compute) {
    String mixed = compute == DType.F32 ? "" : "_" + compute.mlirName();
    GraphBuilder g = new GraphBuilder("train_" + loss.name() + "_b" + b + "_t" + t + mixed);
    ModelPrograms.Inputs in = ModelPrograms.declare(g, c, b, t, p).computingIn(g, compute);
    Node temp = g.parameter(ModelPrograms.TEMPERATURE, DType.F32, Shape.scalar());
    TokenStats st = ModelPrograms.tokenStats(g, c, in, temp);
    Node l = loss.build(g, st);
    if (l.shape().rank() != 0 || l.dtype() != DType.F32) {
      throw new IllegalArgumentException(
          "loss '" + loss.name() + "' must be an f32 scalar, got " + l);
    }
    List<Node> weights = in.weights().all();
    List<Node> grads = Autodiff.gradient(g, l, weights, remat);
    List<Node> m = new ArrayList<>();
    List<Node> v = new ArrayList<>();
    for (WeightSpec s : WeightSpec.layout(c)) {
      m.add(g.parameter(OptimizerPrograms.firstMoment(s.name()), DType.F32, s.shape()));
    }
    for (WeightSpec s : WeightSpec.layout(c)) {
      v.add(g.parameter(OptimizerPrograms.secondMoment(s.name()), DType.F32, s.shape()));
    }
    Node lr = g.parameter(OptimizerPrograms.LR, DType.F32, Shape.scalar());
    Node step = g.parameter(OptimizerPrograms.STEP, DType.F32, Shape.scalar());
    List<Node> outs = new ArrayList<>();
    outs.add(l);
    outs.addAll(
        OptimizerPrograms.outputs(AdamWGraph.apply(g, weights, grads, m, v, lr, step, cfg)));
    return g.build(outs);
  }

  /**
   * The donation that makes a {@link #fused} step update weights, m and v in place ({@code
   * weightNames} in {@link WeightSpec#layout} order).
   */
  public static Donation fusedInPlace(Program fused, List<String> weightNames) {
    return OptimizerPrograms.inPlaceUpdate(fused, weightNames, 3);
  }

  /** The VJP split of {@link ModelPrograms#logProbs} with respect to every weight. */
  public static VjpPrograms logProbsVjp(ModelConfig c, int b, int t, int p) {
    return logProbsVjp(c, b, t, p, true);
  }

  /**
   * As above; without {@code withEntropy} only logp takes a cotangent (a loss with no entropy
   * term), which prunes the entropy's backward work. Elementwise values are recomputed in the
   * backward rather than passed as residuals: residuals live across the host loss, and (B, T, V)
   * ones would otherwise dominate memory (2.1 GB → 0.7 GB for tiny at 64 x 128).
   */
  public static VjpPrograms logProbsVjp(ModelConfig c, int b, int t, int p, boolean withEntropy) {
    return logProbsVjp(c, ModelPrograms.logProbs(c, b, t, p), withEntropy);
  }

  /** As above for any program whose outputs are [logp, entropy] ({@link SequenceBatch}). */
  public static VjpPrograms logProbsVjp(ModelConfig c, Program logProbs, boolean withEntropy) {
    return logProbsVjp(c, logProbs, withEntropy, Remat.ELEMENTWISE);
  }

  /** As above with a rematerialisation policy ({@link Remat#BLOCKS}: block inputs only). */
  public static VjpPrograms logProbsVjp(
      ModelConfig c, Program logProbs, boolean withEntropy, Remat remat) {
    List<String> names = new ArrayList<>();
    for (WeightSpec s : WeightSpec.layout(c)) {
      names.add(s.name());
    }
    return logProbsVjp(logProbs, names, withEntropy, remat);
  }

  /**
   * As above with respect to the parameters {@code trainable} only (LoRA's A and B: the base
   * weights stay plain inputs of the backward, with no gradient).
   */
  public static VjpPrograms logProbsVjp(
      Program logProbs, List<String> trainable, boolean withEntropy, Remat remat) {
    return logProbsVjp(logProbs, trainable, withEntropy, false, remat);
  }

  /**
   * As above; {@code withAuxLoss} also differentiates a Mixture-of-Experts program's third output,
   * the load-balancing loss, whose scalar cotangent is its coefficient in the loss. Without it the
   * output is still returned, for the step to report, and takes no backward work.
   */
  public static VjpPrograms logProbsVjp(
      Program logProbs,
      List<String> trainable,
      boolean withEntropy,
      boolean withAuxLoss,
      Remat remat) {
    if (withAuxLoss && logProbs.outputs().size() < 3) {
      throw new IllegalArgumentException(
          "'" + logProbs.name() + "' has no load-balancing loss output (a dense model)");
    }
    List<String> names = List.copyOf(trainable);
    Set<Integer> differentiated = new java.util.TreeSet<>(withEntropy ? Set.of(0, 1) : Set.of(0));
    if (withAuxLoss) {
      differentiated.add(2);
    }
    return Autodiff.vjp(logProbs, names, differentiated, remat);
  }
}
