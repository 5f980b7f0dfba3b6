package dev.javelin.trainer.engine;

import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.SequenceBatch;
import dev.javelin.backend.batch.TokenLogProbs;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.checkpoint.safetensors.CheckpointShard;
import dev.javelin.backend.distributed.Gang;
import dev.javelin.backend.model.LoraAdapters;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.backend.runtime.PolicyOptimizer;
import dev.javelin.backend.runtime.PolicyOptimizer.Cotangents;
import dev.javelin.backend.runtime.PolicyOptimizer.HostLoss;
import dev.javelin.backend.runtime.PolicyOptimizer.StepResult;
import dev.javelin.backend.spmd.Mesh;
import dev.javelin.grpo.ActorLoss;
import dev.javelin.grpo.LossResult;
import dev.javelin.grpo.MetricNames;
import dev.javelin.grpo.PolicyBatch;
import dev.javelin.trainer.PolicyRole;
import dev.javelin.trainer.SftExample;
import dev.javelin.trainer.TrainSample;
import dev.javelin.trainer.Trainer;
import dev.javelin.trainer.TrainerConfig;
import dev.javelin.trainer.TrainerState;
import dev.javelin.trainer.UpdateResult;
import dev.javelin.weightsync.SnapshotContent;
import dev.javelin.weightsync.WeightSnapshot;
import dev.javelin.weightsync.WireType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The {@link Trainer} over the device backend: the policy and its AdamW state on the device, a
 * frozen reference copy when the config asks for one, and the grpo library's {@link ActorLoss} fed
 * into the model's VJP backward as the cotangent of the per-token log-probs and entropies.
 *
 * <p>Shapes: micro-batches all hold {@code microBatchSize} rows and the model pads lengths to
 * buckets, so a run compiles a handful of programs once and reuses them every step.
 */
public final class PpoUpdater implements Trainer {
  private final TrainerConfig config;
  private final PolicyModel policy;
  private final PolicyModel reference;
  private final PolicyOptimizer optimizer;
  private final Device ownedDevice;
  private final Gang gang; // null: one process

  /**
   * Starts from {@code initial} with {@link UpdaterOptions#defaults()}; the reference policy (if
   * any) stays at {@code initial}. The caller keeps owning {@code device}.
   */
  public PpoUpdater(Device device, ModelCheckpoint initial, TrainerConfig config) {
    this(device, initial, config, UpdaterOptions.defaults(), false);
  }

  /**
   * As above with {@code options}: gradient checkpointing, LoRA adapters (the only tensors that
   * train; {@code initial} stays frozen and, adapters off, is the reference policy), and the
   * compute precision.
   */
  public PpoUpdater(
      Device device, ModelCheckpoint initial, TrainerConfig config, UpdaterOptions options) {
    this(device, initial, config, options, false);
  }

  /**
   * Like the constructor, but {@link #close} also closes {@code device}: a trainer that opened its
   * chips gives them back (and its share of the PJRT client) when it ends.
   */
  public static PpoUpdater owning(
      Device device, ModelCheckpoint initial, TrainerConfig config, UpdaterOptions options) {
    return new PpoUpdater(device, initial, config, options, true);
  }

  private PpoUpdater(
      Device device,
      ModelCheckpoint initial,
      TrainerConfig config,
      UpdaterOptions options,
      boolean own) {
    LoraConfig lora = options.lora();
    DType compute = options.compute();
    this.ownedDevice = own ? device : null;
    this.config = config;
    // (dp × fsdp × tp) over the device's chips; one chip is the unsharded path
    Mesh mesh = config.mesh().over(device.chips());
    this.policy = PolicyModel.of(device, initial, compute, mesh);
    if (lora.enabled()) {
      policy.attachAdapters(lora, LoraAdapters.init(lora, initial.config(), options.loraSeed()));
    }
    // Under LoRA the reference is the policy's own base weights: no second copy.
    this.reference =
        config.useReference() && !lora.enabled()
            ? PolicyModel.of(device, initial, compute, mesh)
            : null;
    this.optimizer =
        new PolicyOptimizer(
            policy,
            config.optimizer(),
            config.schedule(),
            new PolicyOptimizer.Options(
                options.remat(),
                options.loraSeed(),
                config.routerAuxLossCoef(),
                options.reducer()));
    this.gang = options.gang();
  }

  public TrainerConfig config() {
    return config;
  }

  @Override
  public float[][] logProbs(List<TrainSample> samples, PolicyRole role) {
    boolean base = role == PolicyRole.REFERENCE && policy.lora().enabled();
    PolicyModel model = role == PolicyRole.ACTOR || base ? policy : requireReference();
    float[][] out = new float[samples.size()][];
    int chunk = config.logProbMicroBatchSize();
    for (int from = 0; from < samples.size(); from += chunk) {
      List<TrainSample> part = samples.subList(from, Math.min(samples.size(), from + chunk));
      PackedBatch packed = pack(part, TrainSample::promptIds, TrainSample::responseIds);
      float temp = (float) config.temperature();
      TokenLogProbs lp =
          base ? model.baseLogProbs(packed.tokens(), temp) : model.logProbs(packed.tokens(), temp);
      for (int i = 0; i < part.size(); i++) {
        out[from + i] = packed.responseValues(lp.logp(), i);
      }
    }
    return out;
  }

  @Override
  public UpdateResult update(List<TrainSample> samples) {
    checkUpdateBatch(samples);
    MetricSums sums = new MetricSums(gang);
    long startStep = optimizer.stepCount();
    int mini = config.miniBatchSize();
    long start = System.nanoTime();
    List<TrainSample> first = EpochOrder.of(samples, config.shuffle(), config.seed(), startStep, 0);
    boolean oldHere = samples.get(0).oldLogProbs() == null && config.oldLogProbsInUpdate();
    if (oldHere) {
      first = withOldAfterFirstMiniBatch(first);
    }
    double oldSeconds = (System.nanoTime() - start) / 1e9;
    RolloutMismatch mismatch = new RolloutMismatch(gang);
    for (int epoch = 0; epoch < config.ppoEpochs(); epoch++) {
      List<TrainSample> order =
          epoch == 0
              ? first
              : EpochOrder.of(samples, config.shuffle(), config.seed(), startStep, epoch);
      for (int from = 0; from < order.size(); from += mini) {
        updateMiniBatch(order.subList(from, from + mini), sums, epoch == 0 ? mismatch : null);
      }
    }
    Map<String, Double> out = sums.means();
    if (!config.bypassesOldLogProbs()) { // bypass: π_old is the sampler's, nothing to compare
      out.putAll(mismatch.metrics(first));
    }
    return oldHere ? new UpdateResult(out, oldSeconds) : UpdateResult.of(out);
  }

  /**
   * The epoch's order with old log-probs on every sample after the first mini-batch, computed at
   * the current θ before any step; the first mini-batch keeps none and takes its own.
   */
  private List<TrainSample> withOldAfterFirstMiniBatch(List<TrainSample> order) {
    // Under LoRA dropout the step's own forward pass drops adapter inputs, so it is not π_old:
    // then every sample gets π_old here, without dropout.
    int mini = policy.lora().drops() ? 0 : config.miniBatchSize();
    if (order.size() == mini) {
      return order;
    }
    List<TrainSample> rest = order.subList(mini, order.size());
    float[][] old = logProbs(rest, PolicyRole.ACTOR);
    List<TrainSample> out = new ArrayList<>(order.subList(0, mini));
    for (int i = 0; i < rest.size(); i++) {
      out.add(rest.get(i).withOldLogProbs(old[i]));
    }
    return out;
  }

  /**
   * One optimizer step: micro-batch log-probs → ActorLoss → cotangents → accumulated grads. When
   * the samples take π_old from this forward pass, it goes to {@code mismatch} (if non-null).
   */
  private void updateMiniBatch(
      List<TrainSample> samples, MetricSums sums, RolloutMismatch mismatch) {
    MiniBatch mb = MiniBatch.of(samples, config.loss().policyLoss(), config.loss().useKlLoss());
    int micro = config.microBatchSize();
    int width = mb.width();
    List<PackedBatch> packs = new ArrayList<>();
    List<SequenceBatch> tokens = new ArrayList<>();
    for (int from = 0; from < samples.size(); from += micro) {
      PackedBatch p =
          pack(
              samples.subList(from, from + micro),
              TrainSample::promptIds,
              TrainSample::responseIds);
      packs.add(p);
      tokens.add(p.tokens());
    }
    // Without an entropy bonus H takes no gradient: the backward skips the entropy branch.
    boolean usesEntropy = config.loss().entropyCoeff() > 0;
    HostLoss hostLoss =
        new HostLoss() {
          @Override
          public Cotangents apply(int i, TokenLogProbs stats) {
            PackedBatch p = packs.get(i);
            double[] logp = p.responseColumns(stats.logp(), width); // (micro, W)
            if (mismatch != null && mb.oldFromCurrent()) {
              for (int r = 0; r < micro; r++) {
                mismatch.take(samples.get(i * micro + r), logp, r, width);
              }
            }
            PolicyBatch batch =
                mb.micro(
                    i * micro, (i + 1) * micro, logp, p.responseColumns(stats.entropy(), width));
            LossResult loss = ActorLoss.compute(batch, config.loss(), mb.global());
            sums.addMicro(loss.metrics());
            return new Cotangents(
                loss.value(),
                p.tokenColumns(loss.dLogProb(), width),
                p.tokenColumns(loss.dEntropy(), width));
          }

          @Override
          public boolean usesEntropy() {
            return usesEntropy;
          }
        };
    StepResult r = optimizer.step(tokens, (float) config.temperature(), hostLoss);
    Map<String, Double> step = new LinkedHashMap<>(mb.correctionMetrics());
    step.put("actor/grad_norm", r.gradNorm());
    step.put("actor/lr", r.lr());
    step.put("actor/skipped_steps", r.applied() ? 0.0 : 1.0);
    if (!Double.isNaN(r.auxLoss())) {
      step.put(
          MetricNames.AUX_LOSS, r.auxLoss()); // a Mixture-of-Experts model's load-balancing loss
    }
    sums.endStep(step);
  }

  @Override
  public Map<String, Double> sftStep(List<SftExample> examples) {
    if (examples.isEmpty()) {
      throw new IllegalArgumentException("an SFT step needs at least one example");
    }
    long n = 0;
    for (SftExample e : examples) {
      n += e.responseIds().length;
    }
    double scale = 1.0 / n; // token-mean over the whole step's responses
    List<PackedBatch> packs = new ArrayList<>();
    List<SequenceBatch> tokens = new ArrayList<>();
    int micro = config.microBatchSize();
    for (int from = 0; from < examples.size(); from += micro) {
      List<SftExample> part = examples.subList(from, Math.min(examples.size(), from + micro));
      PackedBatch p = pack(part, SftExample::promptIds, SftExample::responseIds);
      packs.add(p);
      tokens.add(p.tokens());
    }
    StepResult r =
        optimizer.step(tokens, 1f, (i, stats) -> SftLoss.cotangents(packs.get(i), stats, scale));
    Map<String, Double> out = new LinkedHashMap<>();
    out.put(MetricNames.SFT_LOSS, r.loss());
    out.put("sft/grad_norm", r.gradNorm());
    out.put("sft/lr", r.lr());
    out.put("sft/tokens", (double) n);
    return out;
  }

  @Override
  public WeightSnapshot snapshot(long version, WireType type, SnapshotContent content) {
    return snapshot(version, type, content, CheckpointShard.WHOLE);
  }

  /** {@code shard}'s part of the snapshot: what each rank of a gang sends. */
  WeightSnapshot snapshot(
      long version, WireType type, SnapshotContent content, CheckpointShard shard) {
    return PolicySnapshots.of(policy, version, type, content, shard);
  }

  @Override
  public long optimizerSteps() {
    return optimizer.stepCount();
  }

  /** The policy's current weights on the host (HF names), any adapters merged in. */
  public ModelCheckpoint policyCheckpoint() {
    return policy.mergedCheckpoint();
  }

  /** The policy's LoRA adapters on the host (empty for full fine-tuning). */
  public Map<String, Tensor.F32> adapterTensors() {
    return policy.adapterTensors();
  }

  /** AdamW moments on the host, by program name ({@code m.<weight>}, {@code v.<weight>}). */
  Map<String, Tensor> optimizerState() {
    return optimizer.optimizerState();
  }

  @Override
  public void saveCheckpoint(Path dir, Map<String, String> extra) {
    saveCheckpoint(dir, extra, CheckpointShard.WHOLE);
  }

  /** Writes {@code shard}'s part of the checkpoint: how each rank of a gang writes its own. */
  void saveCheckpoint(Path dir, Map<String, String> extra, CheckpointShard shard) {
    CheckpointFiles.save(dir, policy, optimizer, config.modelType(), extra, shard);
  }

  @Override
  public TrainerState loadCheckpoint(Path dir) {
    return CheckpointFiles.load(dir, policy, optimizer);
  }

  private void checkUpdateBatch(List<TrainSample> samples) {
    if (samples.isEmpty() || samples.size() % config.miniBatchSize() != 0) {
      throw new IllegalArgumentException(
          "the batch of "
              + samples.size()
              + " samples must be a non-zero multiple of miniBatchSize = "
              + config.miniBatchSize());
    }
    boolean needOld =
        !config.bypassesOldLogProbs()
            && !isOnPolicy(samples.size())
            && !config.oldLogProbsInUpdate();
    boolean withOld = samples.get(0).oldLogProbs() != null;
    boolean kl = config.loss().useKlLoss();
    for (TrainSample s : samples) {
      if ((needOld || withOld) && s.oldLogProbs() == null) {
        throw new IllegalArgumentException(
            "sample '"
                + s.promptUid()
                + "' has no oldLogProbs: call logProbs(ACTOR) first (they may be left out of every"
                + " sample only with one epoch and no rollout correction)");
      }
      if (kl && s.refLogProbs() == null) {
        throw new IllegalArgumentException(
            "useKlLoss is on but sample '" + s.promptUid() + "' has no refLogProbs");
      }
    }
  }

  /**
   * One mini-batch and one epoch: π_old is the current policy, so the old log-probs equal the
   * update's own forward pass and the separate pass can be skipped (VeRL's dp_actor does the same).
   */
  public boolean isOnPolicy(int batchSize) {
    return config.ppoEpochs() == 1 && batchSize == config.miniBatchSize();
  }

  private PolicyModel requireReference() {
    if (reference == null) {
      throw new IllegalStateException(
          "no reference policy: build the TrainerConfig with useReference (useKlLoss or a KL in"
              + " the reward needs one)");
    }
    return reference;
  }

  private <T> PackedBatch pack(
      List<T> items, Function<T, int[]> prompt, Function<T, int[]> response) {
    return PackedBatch.of(items, prompt, response, policy.config());
  }

  @Override
  public void close() {
    optimizer.close();
    policy.close();
    if (reference != null) {
      reference.close();
    }
    if (ownedDevice != null) {
      ownedDevice.close();
    }
  }
}
