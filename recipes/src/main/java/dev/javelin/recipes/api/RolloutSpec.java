package dev.javelin.recipes.api;

import dev.javelin.recipes.config.RolloutConfig;

/** The rollout section of a {@link RunSpec} ({@code actor_rollout_ref.rollout.*}): sampling. */
public final class RolloutSpec {
  private final SpecValues values;

  RolloutSpec(SpecValues values) {
    this.values = values;
  }

  /** Responses per prompt (the GRPO group). */
  public RolloutSpec n(int responses) {
    values.put(RolloutConfig.N, responses);
    return this;
  }

  /** The sampling temperature. */
  public RolloutSpec temperature(double t) {
    values.put(RolloutConfig.TEMPERATURE, t);
    return this;
  }

  /** Nucleus sampling's probability mass (1 turns it off). */
  public RolloutSpec topP(double p) {
    values.put(RolloutConfig.TOP_P, p);
    return this;
  }
}
