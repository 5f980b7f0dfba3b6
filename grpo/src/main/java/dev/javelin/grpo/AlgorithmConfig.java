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
      throw new IllegalArgumentException("algorithm.adv_estimator must not be null");
    }
    if (!(gamma >= 0 && gamma <= 1)) {
      throw new IllegalArgumentException("algorithm.gamma must be in [0, 1], got " + gamma);
    }
    if (!(lam >= 0 && lam <= 1)) {
      throw new IllegalArgumentException("algorithm.lam must be in [0, 1], got " + lam);
    }
    if (klPenalty == null) {
      throw new IllegalArgumentException("algorithm.kl_penalty must not be null");
    }
    if (klCtrl == null) {
      throw new IllegalArgumentException("algorithm.kl_ctrl must not be null");
    }
    if (filterGroups == null) {
      throw new IllegalArgumentException(
          "algorithm.filter_groups must not be null; use disabled()");
    }
    if (rolloutCorrection == null) {
      throw new IllegalArgumentException(
          "algorithm.rollout_correction must not be null; use disabled()");
    }
  }

  /** VeRL's defaults with {@code adv_estimator = grpo}. */
  public static AlgorithmConfig defaults() {
    return of(AdvantageEstimator.GRPO);
  }

  /** VeRL's defaults with the given estimator. */
  public static AlgorithmConfig of(AdvantageEstimator estimator) {
    return new AlgorithmConfig(
        estimator,
        true,
        1.0,
        1.0,
        false,
        KlEstimator.K1,
        KlControlConfig.defaults(),
        FilterGroupsConfig.disabled(),
        RolloutCorrectionConfig.disabled());
  }

  /** This config with {@code norm_adv_by_std_in_grpo} set. */
  public AlgorithmConfig withNormAdvByStd(boolean norm) {
    return new AlgorithmConfig(
        advEstimator,
        norm,
        gamma,
        lam,
        useKlInReward,
        klPenalty,
        klCtrl,
        filterGroups,
        rolloutCorrection);
  }

  /** This config with another γ. */
  public AlgorithmConfig withGamma(double g) {
    return new AlgorithmConfig(
        advEstimator,
        normAdvByStdInGrpo,
        g,
        lam,
        useKlInReward,
        klPenalty,
        klCtrl,
        filterGroups,
        rolloutCorrection);
  }

  /** This config with the KL in the reward switched on. */
  public AlgorithmConfig withKlInReward(KlEstimator penalty, KlControlConfig ctrl) {
    return new AlgorithmConfig(
        advEstimator,
        normAdvByStdInGrpo,
        gamma,
        lam,
        true,
        penalty,
        ctrl,
        filterGroups,
        rolloutCorrection);
  }

  /** This config with DAPO dynamic sampling. */
  public AlgorithmConfig withFilterGroups(FilterGroupsConfig groups) {
    return new AlgorithmConfig(
        advEstimator,
        normAdvByStdInGrpo,
        gamma,
        lam,
        useKlInReward,
        klPenalty,
        klCtrl,
        groups,
        rolloutCorrection);
  }

  /** This config with rollout correction. */
  public AlgorithmConfig withRolloutCorrection(RolloutCorrectionConfig correction) {
    return new AlgorithmConfig(
        advEstimator,
        normAdvByStdInGrpo,
        gamma,
        lam,
        useKlInReward,
        klPenalty,
        klCtrl,
        filterGroups,
        correction);
  }
}
