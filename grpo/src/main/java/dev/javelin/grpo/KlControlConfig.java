package dev.javelin.grpo;

import java.util.List;

/**
 * {@code algorithm.kl_ctrl}: how the in-reward KL coefficient β evolves.
 *
 * @param type {@code fixed} or {@code adaptive}
 * @param klCoef initial β, default 0.001
 * @param horizon H of the adaptive controller, > 0, default 10000
 * @param targetKl KL_target of the adaptive controller, > 0, default 0.1
 */
public record KlControlConfig(Type type, double klCoef, int horizon, double targetKl) {

  /** Validates every field. */
  public KlControlConfig {
    if (type == null) {
      throw new IllegalArgumentException("type must not be null");
    }
    if (!(klCoef >= 0) || !Double.isFinite(klCoef)) {
      throw new IllegalArgumentException("klCoef must be >= 0, got " + klCoef);
    }
    if (horizon <= 0) {
      throw new IllegalArgumentException("horizon must be > 0, got " + horizon);
    }
    if (!(targetKl > 0)) {
      throw new IllegalArgumentException("targetKl must be > 0, got " + targetKl);
    }
  }

  /** VeRL's defaults: fixed, β = 0.001. */
  public static KlControlConfig defaults() {
    return new KlControlConfig(Type.FIXED, 0.001, 10000, 0.1);
  }

  /** The controller type. */
  public enum Type implements RecipeKeyed {
    FIXED("fixed"),
    ADAPTIVE("adaptive");

    private final String key;

    Type(String key) {
      this.key = key;
    }

    @Override
    public List<String> keys() {
      return List.of(key);
    }

    /** Parses a controller type by its key ({@code fixed} or {@code adaptive}). */
    public static Type parse(String key) {
      return RecipeKeyed.lookup(Type.class, key, "type");
    }
  }
}
