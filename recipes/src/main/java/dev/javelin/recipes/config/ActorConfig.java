package dev.javelin.recipes.config;

import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.LrSchedule;
import dev.javelin.grpo.ActorLossConfig;
import dev.javelin.grpo.KlEstimator;
import dev.javelin.grpo.LossAggMode;
import dev.javelin.grpo.PolicyLossConfig;
import dev.javelin.grpo.PolicyLossMode;
import java.util.Objects;

/**
 * {@code actor_rollout_ref.actor.*}: the policy update.
 *
 * @param loss the actor loss (policy loss, entropy bonus, KL loss), built by the grpo library
 * @param optimizer AdamW with {@code grad_clip}
 * @param lr {@code optim.lr}
 * @param warmupSteps {@code optim.lr_warmup_steps}; -1 uses {@code warmupRatio}
 * @param warmupRatio {@code optim.lr_warmup_steps_ratio}
 * @param warmupStyle {@code optim.warmup_style}
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
    WarmupStyle warmupStyle,
    double minLrRatio,
    int ppoMiniBatchSize,
    int ppoMicroBatchSize,
    int ppoEpochs,
    boolean shuffle) {
  static final KeySet KEYS = new KeySet("actor_rollout_ref.actor.");
  public static final KeySpec OPTIM_LR = KEYS.of("optim.lr", KeyType.DOUBLE, 1e-6, "learning rate");
  public static final KeySpec OPTIM_WEIGHT_DECAY =
      KEYS.of("optim.weight_decay", KeyType.DOUBLE, 0.01, "AdamW weight decay");
  public static final KeySpec OPTIM_BETA1 = KEYS.of("optim.beta1", KeyType.DOUBLE, 0.9, "AdamW β1");
  public static final KeySpec OPTIM_BETA2 =
      KEYS.of("optim.beta2", KeyType.DOUBLE, 0.999, "AdamW β2");
  public static final KeySpec OPTIM_LR_WARMUP_STEPS =
      KEYS.of("optim.lr_warmup_steps", KeyType.INT, -1, "warmup steps; -1 uses the ratio");
  public static final KeySpec OPTIM_LR_WARMUP_STEPS_RATIO =
      KEYS.of("optim.lr_warmup_steps_ratio", KeyType.DOUBLE, 0.0, "warmup share of all steps");
  public static final KeySpec OPTIM_WARMUP_STYLE =
      KEYS.of(
          "optim.warmup_style",
          KeyType.keysOf(WarmupStyle.class),
          WarmupStyle.CONSTANT.key(),
          "LR after warmup");
  public static final KeySpec OPTIM_MIN_LR_RATIO =
      KEYS.of("optim.min_lr_ratio", KeyType.DOUBLE, 0.0, "cosine floor, share of lr");
  public static final KeySpec GRAD_CLIP =
      KEYS.of("grad_clip", KeyType.DOUBLE, 1.0, "global gradient-norm clip");
  public static final KeySpec PPO_MINI_BATCH_SIZE =
      KEYS.of("ppo_mini_batch_size", KeyType.INT, 256, "prompts per optimizer step");
  public static final KeySpec PPO_MICRO_BATCH_SIZE_PER_GPU =
      KEYS.optional("ppo_micro_batch_size_per_gpu", KeyType.INT, "samples per fwd/bwd");
  public static final KeySpec PPO_EPOCHS =
      KEYS.of("ppo_epochs", KeyType.INT, 1, "passes over each batch");
  public static final KeySpec SHUFFLE =
      KEYS.of("shuffle", KeyType.BOOL, false, "shuffle samples each epoch");
  public static final KeySpec CLIP_RATIO = KEYS.of("clip_ratio", KeyType.DOUBLE, 0.2, "PPO ε");
  public static final KeySpec CLIP_RATIO_LOW =
      KEYS.optional("clip_ratio_low", KeyType.DOUBLE, "ε_low; default clip_ratio");
  public static final KeySpec CLIP_RATIO_HIGH =
      KEYS.optional("clip_ratio_high", KeyType.DOUBLE, "ε_high; default clip_ratio");
  public static final KeySpec CLIP_RATIO_C =
      KEYS.of("clip_ratio_c", KeyType.DOUBLE, 3.0, "dual-clip bound");
  public static final KeySpec LOSS_AGG_MODE =
      KEYS.of("loss_agg_mode", KeyType.keysOf(LossAggMode.class), "token-mean", "aggregation");
  public static final KeySpec POLICY_LOSS_LOSS_MODE =
      KEYS.of("policy_loss.loss_mode", KeyType.keysOf(PolicyLossMode.class), "vanilla", "PG loss");
  public static final KeySpec ENTROPY_COEFF =
      KEYS.of("entropy_coeff", KeyType.DOUBLE, 0.0, "entropy bonus");
  public static final KeySpec USE_KL_LOSS =
      KEYS.of("use_kl_loss", KeyType.BOOL, false, "KL(π‖π_ref) loss (keeps a reference)");
  public static final KeySpec KL_LOSS_COEF =
      KEYS.of("kl_loss_coef", KeyType.DOUBLE, 0.001, "β of the KL loss");
  public static final KeySpec KL_LOSS_TYPE =
      KEYS.of("kl_loss_type", KeyType.keysOf(KlEstimator.class), "low_var_kl", "KL estimator");

  /** Validates each key. */
  public ActorConfig {
    Objects.requireNonNull(loss, "loss");
    Objects.requireNonNull(optimizer, "optimizer");
    Objects.requireNonNull(warmupStyle, "warmupStyle");
    Checks.require(lr > 0 && Double.isFinite(lr), OPTIM_LR.name(), "must be > 0, got " + lr);
    Checks.require(warmupSteps >= -1, OPTIM_LR_WARMUP_STEPS.name(), "use -1 or a count >= 0");
    Checks.require(
        warmupRatio >= 0 && warmupRatio < 1, OPTIM_LR_WARMUP_STEPS_RATIO.name(), "in [0, 1)");
    Checks.require(minLrRatio >= 0 && minLrRatio <= 1, OPTIM_MIN_LR_RATIO.name(), "in [0, 1]");
    Checks.positive(PPO_MINI_BATCH_SIZE.name(), ppoMiniBatchSize);
    Checks.require(ppoMicroBatchSize >= 0, PPO_MICRO_BATCH_SIZE_PER_GPU.name(), "must be >= 1");
    Checks.positive(PPO_EPOCHS.name(), ppoEpochs);
  }

  static ActorConfig from(Settings s) {
    PolicyLossConfig.Builder pl =
        PolicyLossConfig.builder()
            .lossMode(PolicyLossMode.parse(s.getString(POLICY_LOSS_LOSS_MODE)))
            .clipRatio(s.nonNegativeDouble(CLIP_RATIO))
            .clipRatioC(clipRatioC(s))
            .lossAggMode(LossAggMode.parse(s.getString(LOSS_AGG_MODE)))
            .rolloutCorrection(
                Checks.build("algorithm.rollout_correction", () -> RolloutCorrectionKeys.from(s)));
    if (s.isSet(CLIP_RATIO_LOW)) {
      pl.clipRatioLow(s.nonNegativeDouble(CLIP_RATIO_LOW));
    }
    if (s.isSet(CLIP_RATIO_HIGH)) {
      pl.clipRatioHigh(s.nonNegativeDouble(CLIP_RATIO_HIGH));
    }
    PolicyLossConfig policy = Checks.build("actor_rollout_ref.actor", pl::build);
    ActorLossConfig loss =
        Checks.build(
            "actor_rollout_ref.actor",
            () ->
                new ActorLossConfig(
                    policy,
                    s.nonNegativeDouble(ENTROPY_COEFF),
                    s.getBool(USE_KL_LOSS),
                    s.nonNegativeDouble(KL_LOSS_COEF),
                    KlEstimator.parse(s.getString(KL_LOSS_TYPE), KL_LOSS_TYPE.name())));
    AdamWConfig adam =
        Checks.build(
            "actor_rollout_ref.actor.optim",
            () ->
                new AdamWConfig(
                    s.getDouble(OPTIM_BETA1),
                    s.getDouble(OPTIM_BETA2),
                    1e-8,
                    s.getDouble(OPTIM_WEIGHT_DECAY),
                    s.getDouble(GRAD_CLIP) > 0
                        ? s.getDouble(GRAD_CLIP)
                        : Double.POSITIVE_INFINITY));
    return new ActorConfig(
        loss,
        adam,
        s.getDouble(OPTIM_LR),
        s.getInt(OPTIM_LR_WARMUP_STEPS),
        s.getDouble(OPTIM_LR_WARMUP_STEPS_RATIO),
        s.getChoice(OPTIM_WARMUP_STYLE, WarmupStyle.class),
        s.getDouble(OPTIM_MIN_LR_RATIO),
        s.getInt(PPO_MINI_BATCH_SIZE),
        s.positiveIntOrZero(PPO_MICRO_BATCH_SIZE_PER_GPU),
        s.getInt(PPO_EPOCHS),
        s.getBool(SHUFFLE));
  }

  private static double clipRatioC(Settings s) {
    double c = s.getDouble(CLIP_RATIO_C);
    Checks.require(c > 1, CLIP_RATIO_C.name(), "must be > 1 for dual-clip PPO, got " + c);
    return c;
  }

  /** {@code optim.warmup_style}: the LR once warmup is over. */
  public enum WarmupStyle implements RecipeChoice {
    /** Stays at {@code lr}. */
    CONSTANT,
    /** Decays along a cosine towards {@code min_lr_ratio} × {@code lr}. */
    COSINE
  }

  /** The LR schedule over {@code totalSteps} optimizer steps, as VeRL builds it. */
  public LrSchedule schedule(long totalSteps) {
    long warmup = warmupSteps >= 0 ? warmupSteps : (long) (warmupRatio * totalSteps);
    if (warmupStyle == WarmupStyle.COSINE && totalSteps > warmup) {
      return new LrSchedule.Cosine(lr, warmup, totalSteps, minLrRatio);
    }
    return warmup > 0 ? new LrSchedule.LinearWarmup(lr, warmup) : new LrSchedule.Constant(lr);
  }
}
