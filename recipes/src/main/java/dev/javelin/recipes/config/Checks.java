package dev.javelin.recipes.config;

import java.util.function.Supplier;

/** Small validation helpers whose messages name the recipe key. */
final class Checks {
  private Checks() {}

  static int positive(String key, int v) {
    if (v < 1) {
      throw new ConfigException("recipe key '" + key + "' must be >= 1, got " + v);
    }
    return v;
  }

  static double nonNegative(String key, double v) {
    if (!(v >= 0) || !Double.isFinite(v)) {
      throw new ConfigException("recipe key '" + key + "' must be a finite number >= 0, got " + v);
    }
    return v;
  }

  static void require(boolean ok, String key, String message) {
    if (!ok) {
      throw new ConfigException("recipe key '" + key + "': " + message);
    }
  }

  /**
   * Runs a constructor of another module's config record, turning its {@link
   * IllegalArgumentException} into a {@link ConfigException} that names {@code section}.
   */
  static <T> T build(String section, Supplier<T> constructor) {
    try {
      return constructor.get();
    } catch (IllegalArgumentException e) {
      throw new ConfigException("recipe section '" + section + "': " + e.getMessage(), e);
    }
  }
}
