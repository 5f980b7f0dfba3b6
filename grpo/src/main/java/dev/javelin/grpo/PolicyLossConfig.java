package dev.javelin.grpo;

/**
 * The policy-loss keys of VeRL's actor config, validated. Build with {@link #builder()}, which
 * applies VeRL's defaults (in particular {@code clip_ratio_low}/{@code clip_ratio_high} default to
 * {@code clip_ratio}).
 *
 * @param lossMode {@code actor.policy_loss.loss_mode}, default {@code vanilla}
 * @param clipRatio ε, {@code actor.clip_ratio}, default 0.2
 * @param clipRatioLow ε_low, {@code actor.clip_ratio_low}: the ratio is clipped below at 1 − ε_low
 * @param clipRatioHigh ε_high, {@code actor.clip_ratio_high} (DAPO clip-higher): clipped above at 1
 *     + ε_high
 * @param clipRatioC c, {@code actor.clip_ratio_c}, the dual-clip bound for negative advantages;
 *     must be > 1, default 3
 * @param lossAggMode {@code actor.loss_agg_mode}, default {@code token-mean}
 * @param lossScaleFactor {@code actor.loss_scale_factor}, the constant of {@code
 *     seq-mean-token-sum-norm}; 0 means "the padded response length", VeRL's {@code null}
 * @param rolloutCorrection {@code algorithm.rollout_correction}, used by {@code bypass_mode}
 */
public record PolicyLossConfig(
    PolicyLossMode lossMode,
    double clipRatio,
    double clipRatioLow,
    double clipRatioHigh,
    double clipRatioC,
    LossAggMode lossAggMode,
    int lossScaleFactor,
    RolloutCorrectionConfig rolloutCorrection) {

  /** Validates every field. */
  public PolicyLossConfig {
    if (lossMode == null) {
      throw new IllegalArgumentException("lossMode must not be null");
    }
    checkClip("clipRatio", clipRatio);
    checkClip("clipRatioLow", clipRatioLow);
    checkClip("clipRatioHigh", clipRatioHigh);
    if (!(clipRatioC > 1.0)) {
      throw new IllegalArgumentException(
          "clipRatioC must be > 1 for dual-clip PPO, got " + clipRatioC);
    }
    if (lossAggMode == null) {
      throw new IllegalArgumentException("lossAggMode must not be null");
    }
    if (lossScaleFactor < 0) {
      throw new IllegalArgumentException(
          "lossScaleFactor must be >= 0 (0 = response length), got " + lossScaleFactor);
    }
    if (rolloutCorrection == null) {
      throw new IllegalArgumentException(
          "rolloutCorrection must not be null; use RolloutCorrectionConfig.disabled()");
    }
  }

  private static void checkClip(String field, double v) {
    if (!(v >= 0.0) || !Double.isFinite(v)) {
      throw new IllegalArgumentException(field + " must be a finite number >= 0, got " + v);
    }
  }

  /** VeRL's defaults: vanilla, ε = 0.2, c = 3, token-mean. */
  public static PolicyLossConfig defaults() {
    return builder().build();
  }

  /** A builder starting from VeRL's defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** The global batch with this config's {@code loss_scale_factor} applied, if one is set. */
  public GlobalBatch normalize(GlobalBatch global) {
    return lossScaleFactor == 0 ? global : global.withNormLength(lossScaleFactor);
  }

  /** Mutable builder; {@code clipRatioLow/High} fall back to {@code clipRatio} when unset. */
  public static final class Builder {
    private PolicyLossMode lossMode = PolicyLossMode.VANILLA;
    private double clipRatio = 0.2;
    private Double clipRatioLow;
    private Double clipRatioHigh;
    private double clipRatioC = 3.0;
    private LossAggMode lossAggMode = LossAggMode.TOKEN_MEAN;
    private int lossScaleFactor;
    private RolloutCorrectionConfig rolloutCorrection = RolloutCorrectionConfig.disabled();

    private Builder() {}

    /** Sets {@code loss_mode}. */
    public Builder lossMode(PolicyLossMode mode) {
      this.lossMode = mode;
      return this;
    }

    /** Sets ε. */
    public Builder clipRatio(double v) {
      this.clipRatio = v;
      return this;
    }

    /** Sets ε_low. */
    public Builder clipRatioLow(double v) {
      this.clipRatioLow = v;
      return this;
    }

    /** Sets ε_high. */
    public Builder clipRatioHigh(double v) {
      this.clipRatioHigh = v;
      return this;
    }

    /** Sets the dual-clip bound c. */
    public Builder clipRatioC(double v) {
      this.clipRatioC = v;
      return this;
    }

    /** Sets {@code loss_agg_mode}. */
    public Builder lossAggMode(LossAggMode mode) {
      this.lossAggMode = mode;
      return this;
    }

    /** Sets {@code loss_scale_factor} (0 = response length). */
    public Builder lossScaleFactor(int v) {
      this.lossScaleFactor = v;
      return this;
    }

    /** Sets the rollout-correction config. */
    public Builder rolloutCorrection(RolloutCorrectionConfig v) {
      this.rolloutCorrection = v;
      return this;
    }

    /** Builds and validates. */
    public PolicyLossConfig build() {
      return new PolicyLossConfig(
          lossMode,
          clipRatio,
          clipRatioLow == null ? clipRatio : clipRatioLow,
          clipRatioHigh == null ? clipRatio : clipRatioHigh,
          clipRatioC,
          lossAggMode,
          lossScaleFactor,
          rolloutCorrection);
    }
  }
}
