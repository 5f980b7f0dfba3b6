package dev.javelin.backend.runtime;

import dev.javelin.backend.DType;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.SequenceBatch;
import dev.javelin.backend.batch.TokenBatch;
import dev.javelin.backend.batch.TokenLogProbs;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.graph.VjpPrograms;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.model.LoraDropout;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.MoeFeedForward;
import dev.javelin.backend.model.TokenLoss;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.LrSchedule;
import dev.javelin.backend.optim.OptimizerPrograms;
import dev.javelin.backend.program.Bindings;
import dev.javelin.backend.program.ShardPlan;
import dev.javelin.backend.program.TrainPrograms;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Optimizer state and train steps for a {@link PolicyModel}: AdamW moments live on the device next
 * to the weights. {@link #step} runs the VJP split (loss and its cotangents computed on the host,
 * gradients accumulated on the device over micro-batches); {@link #stepFused} runs one program
 * holding an in-graph loss, its gradients and the update. A step whose gradient norm is not finite
 * changes nothing and does not advance the optimizer step count.
 *
 * <p>Updates are compiled with a {@link dev.javelin.backend.Donation}: on a device that aliases
 * (XLA) the weights, m and v are overwritten in place and the gradient sum accumulates in place, so
 * a step holds one copy of the model and its optimizer state, and only tokens, masks, cotangents
 * and scalars cross the host boundary.
 *
 * <p>On a model's mesh the moments, gradients and gradient sums lie like their weights ({@link
 * ShardPlan}), so FSDP splits the whole optimizer state over the chips.
 */
public final class PolicyOptimizer implements AutoCloseable {

  /**
   * What one optimizer step did. {@code step} counts applied updates after this one; {@code
   * auxLoss} is the Mixture-of-Experts load-balancing loss, the mean over the step's micro-batches
   * (NaN for a model with no routed block, or a step that does not compute it).
   */
  public record StepResult(
      double loss, double gradNorm, boolean applied, double lr, long step, double auxLoss) {
    /** A step with no load-balancing loss. */
    public StepResult(double loss, double gradNorm, boolean applied, double lr, long step) {
      this(loss, gradNorm, applied, lr, step, Double.NaN);
    }
  }

  /**
   * A host loss value and its cotangents {@code ∂L/∂logp}, {@code ∂L/∂H}, each (B, C) like the
   * batch's {@linkplain SequenceBatch#scoredColumns scored columns}; {@code dEntropy} is ignored
   * when the loss says it {@linkplain HostLoss#usesEntropy does not use} H.
   */
  public record Cotangents(double loss, Tensor.F32 dLogp, Tensor.F32 dEntropy) {}

  /** Computes one micro-batch's loss contribution and cotangents from its log-probs. */
  @FunctionalInterface
  public interface HostLoss {
    Cotangents apply(int microBatch, TokenLogProbs stats);

    /** False for a loss without an entropy term: the backward then skips the entropy. */
    default boolean usesEntropy() {
      return true;
    }
  }

  private final PolicyModel model;
  private final Remat remat;
  private final DType compute;
  private final long dropoutSeed;
  private final double routerAuxLossCoef;
  private final boolean routed; // a Mixture-of-Experts model, whose programs give the aux loss
  private final AdamWState state;
  private final GradientReducer reducer;
  // Split programs per shape bucket, bounded like the model's compiled programs.
  private final Map<String, VjpPrograms> splits = ProgramLru.map(ProgramLru.MAX_PROGRAMS, s -> {});

  /**
   * How train steps run beyond AdamW.
   *
   * @param remat what the backward pass keeps: {@link Remat#BLOCKS} recomputes each decoder block
   *     (gradient checkpointing), so a step keeps one (B, T, D) hidden state per layer instead of
   *     every layer's intermediates; see {@link TrainMemory}
   * @param dropoutSeed seeds the adapters' dropout masks ({@link LoraDropout}) when the model's
   *     LoRA config has a dropout
   * @param routerAuxLossCoef &gt; 0 adds that multiple of a Mixture-of-Experts model's
   *     load-balancing loss (the mean over a step's micro-batches) to the loss {@link #step}
   *     differentiates; at 0 the loss is reported and adds nothing
   * @param reducer the ranks sharing each {@link #step}'s micro-batches; {@link
   *     GradientReducer#LOCAL} computes all of them here
   */
  public record Options(
      Remat remat, long dropoutSeed, double routerAuxLossCoef, GradientReducer reducer) {
    /** One process ({@link GradientReducer#LOCAL}). */
    public Options(Remat remat, long dropoutSeed, double routerAuxLossCoef) {
      this(remat, dropoutSeed, routerAuxLossCoef, GradientReducer.LOCAL);
    }

    public Options {
      java.util.Objects.requireNonNull(reducer, "reducer");
    }

    /** {@link #defaultRemat}, no dropout seed, no load-balancing loss added. */
    public static Options defaults() {
      return new Options(defaultRemat(), 0, 0);
    }

    /** These options with micro-batches shared by {@code reducer}'s ranks. */
    public Options withReducer(GradientReducer reducer) {
      return new Options(remat, dropoutSeed, routerAuxLossCoef, reducer);
    }

    /** The defaults with {@code remat}. */
    public static Options remat(Remat remat) {
      return new Options(remat, 0, 0);
    }
  }

  /** An optimizer with {@link Options#defaults()}. */
  public PolicyOptimizer(PolicyModel model, AdamWConfig config, LrSchedule schedule) {
    this(model, config, schedule, Options.defaults());
  }

  /** An optimizer whose steps run as {@code options} say. */
  public PolicyOptimizer(
      PolicyModel model, AdamWConfig config, LrSchedule schedule, Options options) {
    Remat remat = options.remat();
    long dropoutSeed = options.dropoutSeed();
    double routerAuxLossCoef = options.routerAuxLossCoef();
    if (!(routerAuxLossCoef >= 0) || !Double.isFinite(routerAuxLossCoef)) {
      throw new IllegalArgumentException(
          "router_aux_loss_coef must be a finite number >= 0, got " + routerAuxLossCoef);
    }
    this.routerAuxLossCoef = routerAuxLossCoef;
    this.reducer = options.reducer();
    ModelConfig c = model.config();
    this.routed =
        java.util.stream.IntStream.range(0, c.layers())
            .anyMatch(i -> c.architecture().feedForward(i) instanceof MoeFeedForward);
    this.model = model;
    this.dropoutSeed = dropoutSeed;
    this.remat = remat;
    // The model's compute type, so the step's log-probs are the ones the model reports.
    this.compute = model.computeDType();
    this.state = new AdamWState(model, config, schedule);
  }

  /** Names the compiled programs of a mixed-precision optimizer apart from the f32 ones. */
  private String computeSuffix() {
    return compute == DType.F32 ? "" : "_" + compute.mlirName();
  }

  /** The policy from {@code -Djavelin.remat} (none, elementwise, blocks), elementwise if unset. */
  public static Remat defaultRemat() {
    String v = System.getProperty("javelin.remat", "elementwise");
    try {
      return Remat.valueOf(v.toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "-Djavelin.remat must be none, elementwise or blocks, got '" + v + "'", e);
    }
  }

  /** What this optimizer's train steps keep for the backward pass. */
  public Remat remat() {
    return remat;
  }

  /** Updates applied so far. */
  public long stepCount() {
    return state.applied();
  }

  /**
   * The device buffers holding m and v (a read-only view, by program name); a step may overwrite or
   * replace them.
   */
  public Map<String, DeviceBuffer> momentsOnDevice() {
    return state.momentsOnDevice();
  }

  /**
   * Bytes m and v occupy on the chip at mesh position {@code position} (see {@link
   * PolicyModel#residentBytes}).
   */
  public long residentBytes(int position) {
    return state.residentBytes(position);
  }

  /** m and v of every weight, by their program names ({@code m.<name>}, {@code v.<name>}). */
  public Map<String, Tensor> optimizerState() {
    return state.optimizerState();
  }

  /** Restores moments saved by {@link #optimizerState} and the applied-update count. */
  public void restore(Map<String, Tensor> saved, long appliedSteps) {
    state.restore(saved, appliedSteps);
  }

  /**
   * One optimizer step over micro-batches: for each, log-probs → host loss → cotangents →
   * gradients, summed on the device; then clip + AdamW. The host loss decides the normalisation
   * (for a mean over all tokens of the global batch, scale each micro-batch's cotangents by it).
   *
   * <p>With a gang ({@link Options#reducer}) this rank runs only the micro-batches it {@linkplain
   * GradientReducer#computes computes} (the host loss is called for those alone, with their global
   * index); the gradient, loss and load-balancing sums are then summed over the ranks, so every
   * rank applies the same update and returns the same result.
   */
  public StepResult step(
      List<? extends SequenceBatch> microBatches, float temperature, HostLoss loss) {
    if (microBatches.isEmpty()) {
      throw new IllegalArgumentException("a train step needs at least one micro-batch");
    }
    // The load-balancing loss enters as the mean over micro-batches: d/d(aux_i) = coef / n.
    float auxCotangent = (float) (routerAuxLossCoef / microBatches.size());
    double total = 0;
    double auxSum = 0;
    List<DeviceBuffer> acc = null;
    for (int i = 0; i < microBatches.size(); i++) {
      if (!reducer.computes(i)) {
        continue; // another rank of the gang computes it
      }
      MicroResult r = microStep(microBatches.get(i), i, temperature, loss, auxCotangent);
      total += r.loss() + auxCotangent * (Double.isNaN(r.auxLoss()) ? 0 : r.auxLoss());
      auxSum += r.auxLoss();
      acc = acc == null ? r.grads() : state.accumulate(acc, r.grads());
    }
    if (reducer.size() > 1) {
      double[] scalars = {total, auxSum};
      acc = ReducedGradients.sum(model, acc, scalars, reducer);
      total = scalars[0];
      auxSum = scalars[1];
    }
    StepResult s = state.update(acc, total);
    return new StepResult(
        s.loss(), s.gradNorm(), s.applied(), s.lr(), s.step(), auxSum / microBatches.size());
  }

  /** One micro-batch's host loss, its load-balancing loss (NaN if none) and its gradients. */
  private record MicroResult(double loss, double auxLoss, List<DeviceBuffer> grads) {}

  private MicroResult microStep(
      SequenceBatch batch, int i, float temperature, HostLoss loss, float auxCotangent) {
    SequenceBatch at = batch.atBucket(model.config());
    boolean entropy = loss.usesEntropy();
    boolean aux = routed && auxCotangent > 0;
    LoraConfig lora = model.lora();
    String key =
        at.shapeKey()
            + (entropy ? "_H" : "")
            + (aux ? "_aux" : "")
            + splitRematSuffix()
            + (lora.enabled() ? "_lora" : "")
            + (lora.drops() ? "_drop" : "")
            + computeSuffix();
    List<String> trainable = state.trainableNames();
    VjpPrograms split =
        splits.computeIfAbsent(
            key,
            k ->
                TrainPrograms.logProbsVjp(
                    at.logProbsProgram(model.config(), lora, compute),
                    trainable,
                    entropy,
                    aux,
                    splitRemat()));
    Executable fwd =
        model.executable(
            ProgramSpec.of("lp_vjp_fwd_" + key, split::forward).outputs(SplitRoles.forward(split)));
    Executable bwd =
        model.executable(
            ProgramSpec.of("lp_vjp_bwd_" + key, split::backward)
                .outputs(trainable.stream().map(OptimizerPrograms::grad).toList())
                .roles(SplitRoles.residuals(split)));
    Map<String, DeviceBuffer> in = model.uploads(at, temperature);
    if (lora.drops()) {
      LoraDropout.masks(lora, model.config(), split.forward(), dropoutSeed, state.applied(), i)
          .forEach((k, v) -> in.put(k, model.upload(k, v)));
    }
    Map<String, DeviceBuffer> named = model.modelBuffers();
    named.putAll(in);
    named.putAll(model.ropeBuffers());
    List<DeviceBuffer> fwdArgs = Bindings.bind(split.forward(), named);
    List<DeviceBuffer> fwdOut = fwd.run(fwdArgs);
    int c = batch.scoredColumns();
    TokenLogProbs stats =
        new TokenLogProbs(
            TokenLogProbs.firstColumns((Tensor.F32) fwdOut.get(0).toHost(), c),
            TokenLogProbs.firstColumns((Tensor.F32) fwdOut.get(1).toHost(), c));
    double auxLoss = split.outputCount() > 2 ? fwdOut.get(2).toHost().getDouble(0) : Double.NaN;
    Cotangents cot = loss.apply(i, stats);
    int padded = fwdOut.get(0).shape().dim(1);
    List<DeviceBuffer> dys =
        CotangentUploads.of(model, split, cot, batch.rows(), c, padded, auxCotangent);
    List<DeviceBuffer> grads = bwd.run(split.backwardArguments(fwdArgs, fwdOut, dys));
    fwdOut.forEach(DeviceBuffer::close);
    dys.forEach(DeviceBuffer::close);
    in.values().forEach(DeviceBuffer::close);
    return new MicroResult(cot.loss(), auxLoss, grads);
  }

  /**
   * One fused step: the in-graph {@code loss} (its own inputs in {@code lossInputs}, by parameter
   * name, shaped for the bucketed length) → gradients → clip + AdamW, in one program.
   */
  public StepResult stepFused(
      TokenBatch batch, float temperature, TokenLoss loss, Map<String, Tensor> lossInputs) {
    if (model.lora().enabled()) {
      throw new UnsupportedOperationException("the fused train step has no LoRA form: use step");
    }
    TokenBatch padded = batch.requireScorable().padTo(model.bucket(batch.length()));
    int b = padded.batch();
    int tb = padded.length();
    ModelConfig c = model.config();
    List<String> names = model.weightNames();
    Executable exe =
        model.executable(
            ProgramSpec.of(
                    "train_" + loss.name() + "_b" + b + "_t" + tb + "_" + remat + computeSuffix(),
                    () ->
                        TrainPrograms.fused(
                            c, b, tb, c.maxPositions(), loss, state.config(), remat, compute))
                .donating(p -> TrainPrograms.fusedInPlace(p, names))
                .outputs(ShardPlan.after(3, ShardPlan.updateNames(names))));
    Map<String, DeviceBuffer> in = model.tokenInputs(padded, temperature);
    lossInputs.forEach((k, v) -> in.put(k, model.upload(k, v)));
    double lr = state.nextLr();
    in.put(OptimizerPrograms.LR, model.upload(OptimizerPrograms.LR, Tensor.scalar((float) lr)));
    in.put(
        OptimizerPrograms.STEP,
        model.upload(OptimizerPrograms.STEP, Tensor.scalar((float) (state.applied() + 1))));
    Map<String, DeviceBuffer> all = new HashMap<>(in);
    all.putAll(state.momentsOnDevice());
    List<DeviceBuffer> out = model.runKeeping(exe, all, DType.F32);
    in.values().forEach(DeviceBuffer::close);
    StepResult r = state.absorbUpdate(out.subList(1, out.size()), Double.NaN, lr);
    double lossValue = out.get(0).toHost().getDouble(0);
    out.get(0).close();
    return new StepResult(lossValue, r.gradNorm(), r.applied(), r.lr(), r.step());
  }

  /**
   * The split's policy: residuals live across the host loss, so the split always recomputes
   * elementwise values, and whole blocks under {@link Remat#BLOCKS}.
   */
  private Remat splitRemat() {
    return splitRemat(remat);
  }

  /** The split path's policy for a recipe's {@code remat}. */
  static Remat splitRemat(Remat remat) {
    return remat == Remat.BLOCKS ? Remat.BLOCKS : Remat.ELEMENTWISE;
  }

  private String splitRematSuffix() {
    return remat == Remat.BLOCKS ? "_blocks" : "";
  }

  @Override
  public void close() {
    state.close();
  }
}
