package dev.javelin.grpo;

/**
 * The actor's whole loss configuration: the policy loss plus the entropy bonus and the KL loss
 * (VeRL's {@code actor_rollout_ref.actor.*}).
 *
 * @param policyLoss the policy-gradient part
 * @param entropyCoeff {@code entropy_coeff}, the bonus weight (>= 0, default 0)
 * @param useKlLoss {@code use_kl_loss}: add a KL(π_θ‖π_ref) term to the loss
 * @param klLossCoef β, {@code kl_loss_coef}, default 0.001
 * @param klLossType {@code kl_loss_type}, default {@code low_var_kl}
 */
public record ActorLossConfig(
    PolicyLossConfig policyLoss,
    double entropyCoeff,
    boolean useKlLoss,
    double klLossCoef,
    KlEstimator klLossType) {

  /** Validates every field. */
  public ActorLossConfig {
    if (policyLoss == null) {
      throw new IllegalArgumentException("policyLoss must not be null");
    }
    if (!(entropyCoeff >= 0) || !Double.isFinite(entropyCoeff)) {
      throw new IllegalArgumentException(
          "entropyCoeff must be a finite number >= 0, got " + entropyCoeff);
    }
    if (!(klLossCoef >= 0) || !Double.isFinite(klLossCoef)) {
      throw new IllegalArgumentException(
          "klLossCoef must be a finite number >= 0, got " + klLossCoef);
    }
    if (klLossType == null) {
      throw new IllegalArgumentException("klLossType must not be null");
    }
  }

  /** VeRL's defaults: vanilla PPO, no entropy bonus, no KL loss (β = 0.001, low_var_kl). */
  public static ActorLossConfig defaults() {
    return of(PolicyLossConfig.defaults());
  }

  /** The given policy loss with VeRL's defaults for the rest. */
  public static ActorLossConfig of(PolicyLossConfig policyLoss) {
    return new ActorLossConfig(policyLoss, 0.0, false, 0.001, KlEstimator.K3);
  }

  /** This config with an entropy bonus. */
  public ActorLossConfig withEntropyCoeff(double coeff) {
    return new ActorLossConfig(policyLoss, coeff, useKlLoss, klLossCoef, klLossType);
  }

  /** This config with a KL loss of the given estimator and coefficient. */
  public ActorLossConfig withKlLoss(KlEstimator type, double coef) {
    return new ActorLossConfig(policyLoss, entropyCoeff, true, coef, type);
  }
}
