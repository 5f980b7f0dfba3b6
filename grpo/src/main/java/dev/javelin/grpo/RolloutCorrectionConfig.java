package dev.javelin.grpo;

import dev.javelin.grpo.correction.RejectionRule;
import java.util.List;

/**
 * Rollout/training mismatch correction ({@code algorithm.rollout_correction}): truncated importance
 * sampling (TIS) with the sampler's log-probs and rejection sampling (masking).
 *
 * @param rolloutIs IS weight level: {@code token}, {@code sequence}, or off
 * @param rolloutIsThreshold C, weights are truncated to min(w, C); default 2
 * @param rolloutIsBatchNormalize rescale weights to mean 1 over the batch
 * @param rolloutRs rejection rules; a token survives only if every rule keeps it
 * @param bypassMode reuse the sampler's log-probs as old log-probs ({@code bypass_mode} loss)
 * @param lossType the bypass-mode loss: {@code ppo_clip} or {@code reinforce}
 */
public record RolloutCorrectionConfig(
    IsLevel rolloutIs,
    double rolloutIsThreshold,
    boolean rolloutIsBatchNormalize,
    List<RejectionRule> rolloutRs,
    boolean bypassMode,
    BypassLossType lossType) {

  /** Validates the threshold and copies the rule list. */
  public RolloutCorrectionConfig {
    if (rolloutIs == null) {
      throw new IllegalArgumentException("rolloutIs must not be null; use OFF");
    }
    if (!(rolloutIsThreshold > 0)) {
      throw new IllegalArgumentException(
          "rolloutIsThreshold must be > 0, got " + rolloutIsThreshold);
    }
    rolloutRs = List.copyOf(rolloutRs);
    if (lossType == null) {
      throw new IllegalArgumentException("lossType must not be null");
    }
  }

  /** No correction at all. */
  public static RolloutCorrectionConfig disabled() {
    return new RolloutCorrectionConfig(
        IsLevel.OFF, 2.0, false, List.of(), false, BypassLossType.PPO_CLIP);
  }

  /** Truncated IS at the given level and threshold, no rejection (VeRL's TIS presets). */
  public static RolloutCorrectionConfig truncatedIs(IsLevel level, double threshold) {
    return new RolloutCorrectionConfig(
        level, threshold, false, List.of(), false, BypassLossType.PPO_CLIP);
  }

  /**
   * This config with rejection rules parsed from VeRL's strings, e.g. {@code
   * ("token_k1,seq_mean_k3", "0.5_2.0,0.01")}.
   */
  public RolloutCorrectionConfig withRejection(String rolloutRsKeys, String thresholds) {
    return new RolloutCorrectionConfig(
        rolloutIs,
        rolloutIsThreshold,
        rolloutIsBatchNormalize,
        RejectionRule.parse(rolloutRsKeys, thresholds),
        bypassMode,
        lossType);
  }

  /** This config in bypass mode with the given loss type. */
  public RolloutCorrectionConfig inBypassMode(BypassLossType type) {
    return new RolloutCorrectionConfig(
        rolloutIs, rolloutIsThreshold, rolloutIsBatchNormalize, rolloutRs, true, type);
  }

  /** This config with batch normalisation of the IS weights switched on or off. */
  public RolloutCorrectionConfig withBatchNormalize(boolean on) {
    return new RolloutCorrectionConfig(
        rolloutIs, rolloutIsThreshold, on, rolloutRs, bypassMode, lossType);
  }

  /** Whether any correction (weights or rejection) is configured. */
  public boolean enabled() {
    return rolloutIs != IsLevel.OFF || !rolloutRs.isEmpty();
  }

  /** Level of the importance weights ({@code rollout_is}). */
  @SuppressWarnings("ImmutableEnumChecker") // keys are List.of(...), which is unmodifiable
  public enum IsLevel implements RecipeKeyed {
    OFF(List.of("null", "none")),
    /** w_t = min(π_θ(o_t)/π_rollout(o_t), C): biased, low variance. */
    TOKEN(List.of("token")),
    /** w = min(Π_t π_θ/π_rollout, C) over the response: unbiased, high variance. */
    SEQUENCE(List.of("sequence"));

    private final List<String> keys;

    IsLevel(List<String> keys) {
      this.keys = keys;
    }

    @Override
    public List<String> keys() {
      return keys;
    }

    /**
     * Parses a level by its key; a null key means off.
     *
     * @param field what the key was given as, for the error message
     */
    public static IsLevel parse(String key, String field) {
      return key == null ? OFF : RecipeKeyed.lookup(IsLevel.class, key, field);
    }
  }

  /** The bypass-mode loss ({@code loss_type}). */
  public enum BypassLossType implements RecipeKeyed {
    /** PPO clip with r = π_θ/π_rollout; IS weights are not applied (the ratio already is one). */
    PPO_CLIP("ppo_clip"),
    /** ℒ_t = −sg(w_t)·Â_t·logπ_θ(o_t). */
    REINFORCE("reinforce");

    private final String key;

    BypassLossType(String key) {
      this.key = key;
    }

    @Override
    public List<String> keys() {
      return List.of(key);
    }

    /** Parses a bypass loss by its key ({@code ppo_clip} or {@code reinforce}). */
    public static BypassLossType parse(String key) {
      return parse(key, "lossType");
    }

    /**
     * Parses a bypass loss by its key.
     *
     * @param field what the key was given as, for the error message
     */
    public static BypassLossType parse(String key, String field) {
      return RecipeKeyed.lookup(BypassLossType.class, key, field);
    }
  }
}
