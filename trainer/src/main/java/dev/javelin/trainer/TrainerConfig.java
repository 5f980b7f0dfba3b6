package dev.javelin.trainer;

import dev.javelin.backend.model.Architectures;
import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.LrSchedule;
import dev.javelin.backend.spmd.MeshShape;
import dev.javelin.grpo.ActorLossConfig;
import dev.javelin.grpo.RolloutCorrectionConfig;
import java.util.Objects;

/**
 * The trainer's settings, with the VeRL key each one comes from. Batch sizes count samples
 * (responses): VeRL's {@code ppo_mini_batch_size} counts prompts, so the driver passes it times
 * {@code rollout.n}.
 *
 * @param ppoEpochs {@code actor_rollout_ref.actor.ppo_epochs}: passes over each batch, &gt;= 1
 * @param miniBatchSize {@code actor_rollout_ref.actor.ppo_mini_batch_size} × n: samples per
 *     optimizer step
 * @param microBatchSize {@code actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu}: samples per
 *     forward/backward; must divide {@code miniBatchSize} (gradients are accumulated exactly)
 * @param logProbMicroBatchSize {@code actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu}:
 *     samples per old/ref log-prob pass
 * @param temperature τ, {@code actor_rollout_ref.rollout.temperature}: log-probs are taken at the
 *     sampling temperature, as VeRL does
 * @param optimizer {@code actor_rollout_ref.actor.optim.*} and {@code actor.grad_clip}
 * @param schedule the LR as a function of the optimizer step ({@code optim.lr}, warmup)
 * @param loss the actor loss (policy loss incl. rollout correction, entropy, KL)
 * @param useReference keep a frozen reference copy ({@code use_kl_loss} or {@code
 *     use_kl_in_reward})
 * @param shuffle {@code actor_rollout_ref.actor.shuffle}: permute samples before each epoch
 * @param seed seeds the shuffle; each (step, epoch) permutation is a pure function of it, so resume
 *     needs no RNG state
 * @param modelType the {@code model_type} written to checkpoints' config.json (an {@link
 *     Architectures} model type)
 * @param mesh how the policy (and reference) lie over the trainer device's chips: FSDP shards,
 *     tensor-parallel ranks, data-parallel replicas; {@link MeshShape#ONE} on one chip
 * @param routerAuxLossCoef {@code actor_rollout_ref.model.override_config.router_aux_loss_coef}:
 *     the multiple of a Mixture-of-Experts model's load-balancing loss added to the actor loss (0:
 *     reported as {@code actor/aux_loss}, not added); no effect on a dense model
 */
public record TrainerConfig(
    int ppoEpochs,
    int miniBatchSize,
    int microBatchSize,
    int logProbMicroBatchSize,
    double temperature,
    AdamWConfig optimizer,
    LrSchedule schedule,
    ActorLossConfig loss,
    boolean useReference,
    boolean shuffle,
    long seed,
    String modelType,
    MeshShape mesh,
    double routerAuxLossCoef) {

  /** Validates every field, naming it. */
  public TrainerConfig {
    positive("ppoEpochs", ppoEpochs);
    positive("miniBatchSize", miniBatchSize);
    positive("microBatchSize", microBatchSize);
    positive("logProbMicroBatchSize", logProbMicroBatchSize);
    if (miniBatchSize % microBatchSize != 0) {
      throw new IllegalArgumentException(
          "microBatchSize ("
              + microBatchSize
              + ") must divide the mini-batch of "
              + miniBatchSize
              + " samples");
    }
    if (!(temperature > 0) || !Double.isFinite(temperature)) {
      throw new IllegalArgumentException(
          "temperature must be > 0 for training, got " + temperature);
    }
    Objects.requireNonNull(optimizer, "optimizer");
    Objects.requireNonNull(schedule, "schedule");
    Objects.requireNonNull(loss, "loss");
    Objects.requireNonNull(mesh, "mesh");
    if (loss.useKlLoss() && !useReference) {
      throw new IllegalArgumentException(
          "a loss with useKlLoss needs the reference policy (useReference)");
    }
    if (!(routerAuxLossCoef >= 0) || !Double.isFinite(routerAuxLossCoef)) {
      throw new IllegalArgumentException(
          "routerAuxLossCoef must be a finite number >= 0, got " + routerAuxLossCoef);
    }
    if (Architectures.byModelType(modelType).isEmpty()) {
      throw new IllegalArgumentException(
          "modelType must be one of " + Architectures.modelTypes() + ", got '" + modelType + "'");
    }
  }

  /**
   * A config with VeRL's defaults for the rest: one epoch, no shuffle, log-prob passes in
   * micro-batches of {@code microBatchSize}, a reference model only when the loss uses KL.
   */
  public static TrainerConfig of(
      int miniBatchSize,
      int microBatchSize,
      double temperature,
      AdamWConfig optimizer,
      LrSchedule schedule,
      ActorLossConfig loss) {
    return builder(miniBatchSize, microBatchSize, optimizer, schedule, loss)
        .temperature(temperature)
        .build();
  }

  /**
   * A builder holding the required parts, with VeRL's defaults for the rest: one epoch, no shuffle,
   * seed 0, log-prob passes in micro-batches of {@code microBatchSize}, τ = 1, a reference model
   * only when the loss uses KL, a {@code llama} checkpoint on one chip, no load-balancing loss
   * added.
   */
  public static Builder builder(
      int miniBatchSize,
      int microBatchSize,
      AdamWConfig optimizer,
      LrSchedule schedule,
      ActorLossConfig loss) {
    Builder b = new Builder();
    b.miniBatchSize = miniBatchSize;
    b.microBatchSize = microBatchSize;
    b.logProbMicroBatchSize = microBatchSize;
    b.optimizer = optimizer;
    b.schedule = schedule;
    b.loss = loss;
    b.useReference = loss.useKlLoss();
    return b;
  }

  /** A builder starting from this config's values. */
  public Builder toBuilder() {
    return builder(miniBatchSize, microBatchSize, optimizer, schedule, loss)
        .epochs(ppoEpochs, shuffle)
        .logProbMicroBatchSize(logProbMicroBatchSize)
        .temperature(temperature)
        .useReference(useReference)
        .seed(seed)
        .modelType(modelType)
        .mesh(mesh)
        .routerAuxLossCoef(routerAuxLossCoef);
  }

  /** Sets fields one by one; {@link #build()} validates them all, as the constructor does. */
  public static final class Builder {
    private int ppoEpochs = 1;
    private int miniBatchSize;
    private int microBatchSize;
    private int logProbMicroBatchSize;
    private double temperature = 1.0;
    private AdamWConfig optimizer;
    private LrSchedule schedule;
    private ActorLossConfig loss;
    private boolean useReference;
    private boolean shuffle;
    private long seed;
    private String modelType = LlamaFamily.LLAMA.modelType();
    private MeshShape mesh = MeshShape.ONE;
    private double routerAuxLossCoef;

    private Builder() {}

    /** {@code ppo_epochs} and {@code shuffle}. */
    public Builder epochs(int epochs, boolean shuffleEach) {
      this.ppoEpochs = epochs;
      this.shuffle = shuffleEach;
      return this;
    }

    /** The micro-batch of forward/backward passes and of log-prob passes alike. */
    public Builder microBatchSize(int micro) {
      this.microBatchSize = micro;
      this.logProbMicroBatchSize = micro;
      return this;
    }

    public Builder logProbMicroBatchSize(int micro) {
      this.logProbMicroBatchSize = micro;
      return this;
    }

    public Builder temperature(double t) {
      this.temperature = t;
      return this;
    }

    public Builder loss(ActorLossConfig l) {
      this.loss = l;
      return this;
    }

    public Builder useReference(boolean use) {
      this.useReference = use;
      return this;
    }

    public Builder seed(long s) {
      this.seed = s;
      return this;
    }

    public Builder modelType(String type) {
      this.modelType = type;
      return this;
    }

    public Builder mesh(MeshShape shape) {
      this.mesh = shape;
      return this;
    }

    public Builder routerAuxLossCoef(double coef) {
      this.routerAuxLossCoef = coef;
      return this;
    }

    public TrainerConfig build() {
      return new TrainerConfig(
          ppoEpochs,
          miniBatchSize,
          microBatchSize,
          logProbMicroBatchSize,
          temperature,
          optimizer,
          schedule,
          loss,
          useReference,
          shuffle,
          seed,
          modelType,
          mesh,
          routerAuxLossCoef);
    }
  }

  /**
   * Whether {@link Trainer#update} takes π_old itself when the samples come without old log-probs:
   * with one epoch and no rollout correction (which weighs samples by π_old before any step), the
   * first mini-batch's own forward pass runs at the pre-update θ, so its log-probs, detached, are
   * the recomputed old ones, and only the later mini-batches need a separate pass (run before the
   * first optimizer step). The same π_old as recomputing every sample first, from 1/K less work for
   * K mini-batches per batch.
   */
  public boolean oldLogProbsInUpdate() {
    return oldLogProbsInUpdate(loss, ppoEpochs);
  }

  /** {@link #oldLogProbsInUpdate()} of a trainer with this loss and epoch count. */
  public static boolean oldLogProbsInUpdate(ActorLossConfig loss, int ppoEpochs) {
    RolloutCorrectionConfig rc = loss.policyLoss().rolloutCorrection();
    return !rc.bypassMode() && !rc.enabled() && ppoEpochs == 1;
  }

  /** Whether the old log-probs are the sampler's ({@code bypass_mode}) rather than recomputed. */
  public boolean bypassesOldLogProbs() {
    return bypassesOldLogProbs(loss);
  }

  /** {@link #bypassesOldLogProbs()} of a trainer with this loss. */
  public static boolean bypassesOldLogProbs(ActorLossConfig loss) {
    return loss.policyLoss().rolloutCorrection().bypassMode();
  }

  private static void positive(String field, int v) {
    if (v < 1) {
      throw new IllegalArgumentException(field + " must be >= 1, got " + v);
    }
  }
}
