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

  /** No load-balancing loss in the actor loss (it is still reported). */
  public TrainerConfig(
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
      MeshShape mesh) {
    this(
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
        0);
  }

  /** One chip ({@link MeshShape#ONE}). */
  public TrainerConfig(
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
      String modelType) {
    this(
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
        MeshShape.ONE);
  }

  /** Validates every field, naming the recipe key. */
  public TrainerConfig {
    positive("actor_rollout_ref.actor.ppo_epochs", ppoEpochs);
    positive("actor_rollout_ref.actor.ppo_mini_batch_size", miniBatchSize);
    positive("actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu", microBatchSize);
    positive("actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu", logProbMicroBatchSize);
    if (miniBatchSize % microBatchSize != 0) {
      throw new IllegalArgumentException(
          "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu ("
              + microBatchSize
              + ") must divide the mini-batch of "
              + miniBatchSize
              + " samples");
    }
    if (!(temperature > 0) || !Double.isFinite(temperature)) {
      throw new IllegalArgumentException(
          "actor_rollout_ref.rollout.temperature must be > 0 for training, got " + temperature);
    }
    Objects.requireNonNull(optimizer, "optimizer");
    Objects.requireNonNull(schedule, "schedule");
    Objects.requireNonNull(loss, "loss");
    Objects.requireNonNull(mesh, "mesh");
    if (loss.useKlLoss() && !useReference) {
      throw new IllegalArgumentException(
          "actor_rollout_ref.actor.use_kl_loss needs the reference policy (useReference)");
    }
    if (!(routerAuxLossCoef >= 0) || !Double.isFinite(routerAuxLossCoef)) {
      throw new IllegalArgumentException(
          "actor_rollout_ref.model.override_config.router_aux_loss_coef must be a finite number"
              + " >= 0, got "
              + routerAuxLossCoef);
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
    return new TrainerConfig(
        1,
        miniBatchSize,
        microBatchSize,
        microBatchSize,
        temperature,
        optimizer,
        schedule,
        loss,
        loss.useKlLoss(),
        false,
        0L,
        LlamaFamily.LLAMA.modelType());
  }

  /** This config with {@code ppo_epochs} and {@code shuffle} set. */
  public TrainerConfig withEpochs(int epochs, boolean shuffleEach) {
    return new TrainerConfig(
        epochs,
        miniBatchSize,
        microBatchSize,
        logProbMicroBatchSize,
        temperature,
        optimizer,
        schedule,
        loss,
        useReference,
        shuffleEach,
        seed,
        modelType,
        mesh,
        routerAuxLossCoef);
  }

  /** This config saving checkpoints as {@code type} (the loaded checkpoint's architecture). */
  public TrainerConfig withModelType(String type) {
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
        type,
        mesh,
        routerAuxLossCoef);
  }

  /** This config over {@code shape} (the trainer's chips). */
  public TrainerConfig withMesh(MeshShape shape) {
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
        shape,
        routerAuxLossCoef);
  }

  /** This config adding {@code coef} × the load-balancing loss to the actor loss. */
  public TrainerConfig withRouterAuxLossCoef(double coef) {
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
        coef);
  }

  /** This config with another micro-batch size (for log-prob passes too). */
  public TrainerConfig withMicroBatchSize(int micro) {
    return new TrainerConfig(
        ppoEpochs,
        miniBatchSize,
        micro,
        micro,
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

  /**
   * Whether {@link Trainer#update} takes π_old itself when the samples come without old log-probs:
   * with one epoch and no rollout correction (which weighs samples by π_old before any step), the
   * first mini-batch's own forward pass runs at the pre-update θ, so its log-probs, detached, are
   * the recomputed old ones, and only the later mini-batches need a separate pass (run before the
   * first optimizer step). The same π_old as recomputing every sample first, from 1/K less work for
   * K mini-batches per batch.
   */
  public boolean oldLogProbsInUpdate() {
    RolloutCorrectionConfig rc = loss.policyLoss().rolloutCorrection();
    return !rc.bypassMode() && !rc.enabled() && ppoEpochs == 1;
  }

  /** Whether the old log-probs are the sampler's ({@code bypass_mode}) rather than recomputed. */
  public boolean bypassesOldLogProbs() {
    return loss.policyLoss().rolloutCorrection().bypassMode();
  }

  private static void positive(String key, int v) {
    if (v < 1) {
      throw new IllegalArgumentException(key + " must be >= 1, got " + v);
    }
  }
}
