package dev.javelin.recipes.api;

import dev.javelin.recipes.config.KeySpec;
import java.util.LinkedHashMap;
import java.util.Map;

/** The recipe values a {@link RunSpec.Builder}'s sections set, in the order they were set. */
final class SpecValues {
  private final Map<String, Object> values = new LinkedHashMap<>();

  void put(KeySpec key, Object value) {
    values.put(key.name(), value);
  }

  void put(String key, Object value) {
    values.put(key, value);
  }

  Map<String, Object> asMap() {
    return values;
  }
}
