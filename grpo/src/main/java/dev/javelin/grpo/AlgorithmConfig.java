package dev.javelin.grpo;

/**
 * VeRL's {@code algorithm.*} keys, validated.
 *
 * @param advEstimator {@code adv_estimator}; default {@code grpo} (VeRL's default {@code gae} needs
 *     a critic, which Javelin does not have)
 * @param normAdvByStdInGrpo {@code norm_adv_by_std_in_grpo}; false gives Dr.GRPO, default true
 * @param gamma γ, {@code gamma}, the discount of REINFORCE++ returns, in [0, 1], default 1
 * @param lam λ, {@code lam}, kept for recipe compatibility (GAE only), default 1
 * @param useKlInReward {@code use_kl_in_reward}: subtract β·KL from the token rewards
 * @param klPenalty {@code kl_penalty}: the estimator for the in-reward KL, default {@code kl}
 * @param klCtrl {@code kl_ctrl}: the controller of β
 * @param filterGroups {@code filter_groups}: DAPO dynamic sampling
 * @param rolloutCorrection {@code rollout_correction}; the trainer also hands it to {@link
 *     PolicyLossConfig} (VeRL passes it into the actor's policy-loss config the same way)
 */
public record AlgorithmConfig(
    AdvantageEstimator advEstimator,
    boolean normAdvByStdInGrpo,
    double gamma,
    double lam,
    boolean useKlInReward,
    KlEstimator klPenalty,
    KlControlConfig klCtrl,
    FilterGroupsConfig filterGroups,
    RolloutCorrectionConfig rolloutCorrection) {

  /** The ε of GRPO's (s − μ)/(σ + ε), as in VeRL. */
  public static final double EPSILON = 1e-6;

  /** Validates every field. */
  public AlgorithmConfig {
    if (advEstimator == null) {
      throw new IllegalArgumentException("advEstimator must not be null");
    }
    if (!(gamma >= 0 && gamma <= 1)) {
      throw new IllegalArgumentException("gamma must be in [0, 1], got " + gamma);
    }
    if (!(lam >= 0 && lam <= 1)) {
      throw new IllegalArgumentException("lam must be in [0, 1], got " + lam);
    }
    if (klPenalty == null) {
      throw new IllegalArgumentException("klPenalty must not be null");
    }
    if (klCtrl == null) {
      throw new IllegalArgumentException("klCtrl must not be null");
    }
    if (filterGroups == null) {
      throw new IllegalArgumentException("filterGroups must not be null; use disabled()");
    }
    if (rolloutCorrection == null) {
      throw new IllegalArgumentException("rolloutCorrection must not be null; use disabled()");
    }
  }

  /** VeRL's defaults with {@code adv_estimator = grpo}. */
  public static AlgorithmConfig defaults() {
    return of(AdvantageEstimator.GRPO);
  }

  /** VeRL's defaults with the given estimator. */
  public static AlgorithmConfig of(AdvantageEstimator estimator) {
    return new Builder(estimator).build();
  }

  /** A builder starting from this config's values. */
  public Builder toBuilder() {
    Builder b = new Builder(advEstimator);
    b.normAdvByStdInGrpo = normAdvByStdInGrpo;
    b.gamma = gamma;
    b.lam = lam;
    b.useKlInReward = useKlInReward;
    b.klPenalty = klPenalty;
    b.klCtrl = klCtrl;
    b.filterGroups = filterGroups;
    b.rolloutCorrection = rolloutCorrection;
    return b;
  }

  /** Sets fields one by one from VeRL's defaults; {@link #build()} validates them all. */
  public static final class Builder {
    private final AdvantageEstimator advEstimator;
    private boolean normAdvByStdInGrpo = true;
    private double gamma = 1.0;
    private double lam = 1.0;
    private boolean useKlInReward;
    private KlEstimator klPenalty = KlEstimator.K1;
    private KlControlConfig klCtrl = KlControlConfig.defaults();
    private FilterGroupsConfig filterGroups = FilterGroupsConfig.disabled();
    private RolloutCorrectionConfig rolloutCorrection = RolloutCorrectionConfig.disabled();

    private Builder(AdvantageEstimator estimator) {
      this.advEstimator = estimator;
    }

    public Builder normAdvByStd(boolean norm) {
      this.normAdvByStdInGrpo = norm;
      return this;
    }

    public Builder gamma(double g) {
      this.gamma = g;
      return this;
    }

    /** The KL in the reward switched on, with its estimator and β controller. */
    public Builder klInReward(KlEstimator penalty, KlControlConfig ctrl) {
      this.useKlInReward = true;
      this.klPenalty = penalty;
      this.klCtrl = ctrl;
      return this;
    }

    public AlgorithmConfig build() {
      return new AlgorithmConfig(
          advEstimator,
          normAdvByStdInGrpo,
          gamma,
          lam,
          useKlInReward,
          klPenalty,
          klCtrl,
          filterGroups,
          rolloutCorrection);
    }
  }
}
