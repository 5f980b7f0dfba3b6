package dev.javelin.grpo.kl;

import dev.javelin.grpo.KlControlConfig;

/**
 * The controller of the in-reward KL coefficient β. Immutable: {@link #update} returns the
 * controller for the next step.
 */
public sealed interface KlController permits KlController.Fixed, KlController.Adaptive {

  /** The current β. */
  double value();

  /** The controller after observing {@code currentKl} over {@code nSteps} samples. */
  KlController update(double currentKl, int nSteps);

  /** Builds the controller {@code algorithm.kl_ctrl} describes. */
  static KlController of(KlControlConfig c) {
    return switch (c.type()) {
      case FIXED -> new Fixed(c.klCoef());
      case ADAPTIVE -> new Adaptive(c.klCoef(), c.targetKl(), c.horizon());
    };
  }

  /** β stays constant. */
  record Fixed(double value) implements KlController {
    @Override
    public KlController update(double currentKl, int nSteps) {
      return this;
    }
  }

  /**
   * Ziegler et al. 2019: e = clip(KL/KL_target − 1, −0.2, 0.2), β ← β·(1 + e·n/H).
   *
   * @param value β
   * @param target KL_target
   * @param horizon H
   */
  record Adaptive(double value, double target, int horizon) implements KlController {
    @Override
    public KlController update(double currentKl, int nSteps) {
      double error = Math.max(-0.2, Math.min(0.2, currentKl / target - 1.0));
      return new Adaptive(value * (1.0 + error * nSteps / horizon), target, horizon);
    }
  }
}
