package dev.javelin.recipes.config;

import java.util.ArrayList;
import java.util.List;

/**
 * The keys one recipe section declares. A section holds each key as a {@code KeySpec} constant made
 * here, reads it through that constant and names it in messages by {@code KEY.name()}, so every key
 * is spelled once, next to the record it configures.
 */
final class KeySet {
  private final List<KeySpec> specs = new ArrayList<>();

  KeySpec of(String name, KeyType type, Object defaultValue, String doc) {
    return add(KeySpec.of(name, type, defaultValue, doc));
  }

  KeySpec optional(String name, KeyType type, String doc) {
    return add(KeySpec.optional(name, type, doc));
  }

  private KeySpec add(KeySpec spec) {
    specs.add(spec);
    return spec;
  }

  /** Adds every key to the schema being built. */
  void declareIn(Schema.Builder b) {
    specs.forEach(b::add);
  }
}
