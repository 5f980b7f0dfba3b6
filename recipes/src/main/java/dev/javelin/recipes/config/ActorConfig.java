package dev.javelin.recipes.config;

import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.LrSchedule;
import dev.javelin.grpo.ActorLossConfig;
import dev.javelin.grpo.KlEstimator;
import dev.javelin.grpo.PolicyLossConfig;
import java.util.Objects;

/**
 * {@code actor_rollout_ref.actor.*}: the policy update.
 *
 * @param loss the actor loss (policy loss, entropy bonus, KL loss), built by the grpo library
 * @param optimizer AdamW with {@code grad_clip}
 * @param lr {@code optim.lr}
 * @param warmupSteps {@code optim.lr_warmup_steps}; -1 uses {@code warmupRatio}
 * @param warmupRatio {@code optim.lr_warmup_steps_ratio}
 * @param warmupStyle {@code optim.warmup_style}: constant or cosine
 * @param minLrRatio {@code optim.min_lr_ratio}
 * @param ppoMiniBatchSize prompts per optimizer step
 * @param ppoMicroBatchSize samples per forward/backward; 0 means the whole mini-batch
 * @param ppoEpochs passes over each batch
 * @param shuffle shuffle samples each epoch
 */
public record ActorConfig(
    ActorLossConfig loss,
    AdamWConfig optimizer,
    double lr,
    int warmupSteps,
    double warmupRatio,
    String warmupStyle,
    double minLrRatio,
    int ppoMiniBatchSize,
    int ppoMicroBatchSize,
    int ppoEpochs,
    boolean shuffle) {

  /** Validates each key. */
  public ActorConfig {
    String p = RecipeSchema.ACTOR;
    Objects.requireNonNull(loss, "loss");
    Objects.requireNonNull(optimizer, "optimizer");
    Checks.require(lr > 0 && Double.isFinite(lr), p + "optim.lr", "must be > 0, got " + lr);
    Checks.require(warmupSteps >= -1, p + "optim.lr_warmup_steps", "use -1 or a count >= 0");
    Checks.require(
        warmupRatio >= 0 && warmupRatio < 1, p + "optim.lr_warmup_steps_ratio", "in [0, 1)");
    Checks.require(minLrRatio >= 0 && minLrRatio <= 1, p + "optim.min_lr_ratio", "in [0, 1]");
    Checks.positive(p + "ppo_mini_batch_size", ppoMiniBatchSize);
    Checks.require(ppoMicroBatchSize >= 0, p + "ppo_micro_batch_size_per_gpu", "must be >= 1");
    Checks.positive(p + "ppo_epochs", ppoEpochs);
  }

  static ActorConfig from(Settings s) {
    String p = RecipeSchema.ACTOR;
    PolicyLossConfig.Builder pl =
        PolicyLossConfig.builder()
            .lossMode(s.getString(p + "policy_loss.loss_mode"))
            .clipRatio(Checks.nonNegative(p + "clip_ratio", s.getDouble(p + "clip_ratio")))
            .clipRatioC(s.getDouble(p + "clip_ratio_c"))
            .lossAggMode(s.getString(p + "loss_agg_mode"))
            .rolloutCorrection(
                Checks.build("algorithm.rollout_correction", () -> RolloutCorrectionKeys.from(s)));
    if (s.isSet(p + "clip_ratio_low")) {
      pl.clipRatioLow(s.getDouble(p + "clip_ratio_low"));
    }
    if (s.isSet(p + "clip_ratio_high")) {
      pl.clipRatioHigh(s.getDouble(p + "clip_ratio_high"));
    }
    PolicyLossConfig policy = Checks.build("actor_rollout_ref.actor", pl::build);
    ActorLossConfig loss =
        Checks.build(
            "actor_rollout_ref.actor",
            () ->
                new ActorLossConfig(
                    policy,
                    s.getDouble(p + "entropy_coeff"),
                    s.getBool(p + "use_kl_loss"),
                    s.getDouble(p + "kl_loss_coef"),
                    KlEstimator.parse(s.getString(p + "kl_loss_type"), p + "kl_loss_type")));
    AdamWConfig adam =
        Checks.build(
            "actor_rollout_ref.actor.optim",
            () ->
                new AdamWConfig(
                    s.getDouble(p + "optim.beta1"),
                    s.getDouble(p + "optim.beta2"),
                    1e-8,
                    s.getDouble(p + "optim.weight_decay"),
                    s.getDouble(p + "grad_clip") > 0
                        ? s.getDouble(p + "grad_clip")
                        : Double.POSITIVE_INFINITY));
    return new ActorConfig(
        loss,
        adam,
        s.getDouble(p + "optim.lr"),
        s.getInt(p + "optim.lr_warmup_steps"),
        s.getDouble(p + "optim.lr_warmup_steps_ratio"),
        s.getString(p + "optim.warmup_style"),
        s.getDouble(p + "optim.min_lr_ratio"),
        s.getInt(p + "ppo_mini_batch_size"),
        s.isSet(p + "ppo_micro_batch_size_per_gpu")
            ? Checks.positive(
                p + "ppo_micro_batch_size_per_gpu", s.getInt(p + "ppo_micro_batch_size_per_gpu"))
            : 0,
        s.getInt(p + "ppo_epochs"),
        s.getBool(p + "shuffle"));
  }

  /** The LR schedule over {@code totalSteps} optimizer steps, as VeRL builds it. */
  public LrSchedule schedule(long totalSteps) {
    long warmup = warmupSteps >= 0 ? warmupSteps : (long) (warmupRatio * totalSteps);
    if (warmupStyle.equals("cosine") && totalSteps > warmup) {
      return new LrSchedule.Cosine(lr, warmup, totalSteps, minLrRatio);
    }
    return warmup > 0 ? new LrSchedule.LinearWarmup(lr, warmup) : new LrSchedule.Constant(lr);
  }
}
