package dev.javelin.recipes.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The keys one recipe section declares. A section holds each key as a {@code KeySpec} constant made
 * here, reads it through that constant and names it in messages by {@code KEY.name()}, so every key
 * is spelled once, next to the record it configures. {@link RecipeSchema} collects the sections'
 * sets.
 */
final class KeySet {
  private final String prefix;
  private final List<KeySpec> specs = new ArrayList<>();
  private final List<Map.Entry<String, KeySpec>> aliases = new ArrayList<>();

  /** A set whose keys are named in full. */
  KeySet() {
    this("");
  }

  /**
   * A set whose keys all start with {@code prefix} (e.g. {@code "data."}): each key is declared by
   * the rest of its name, so the section's path is spelled once.
   */
  KeySet(String prefix) {
    this.prefix = prefix;
  }

  KeySpec of(String name, KeyType type, Object defaultValue, String doc) {
    return add(KeySpec.of(prefix + name, type, defaultValue, doc));
  }

  KeySpec optional(String name, KeyType type, String doc) {
    return add(KeySpec.optional(prefix + name, type, doc));
  }

  private KeySpec add(KeySpec spec) {
    specs.add(spec);
    return spec;
  }

  /** {@code alias} (a full name) is another spelling of {@code target}; see {@link Schema}. */
  void alias(String alias, KeySpec target) {
    aliases.add(Map.entry(alias, target));
  }

  /** Adds every key and alias to the schema being built. */
  void declareIn(Schema.Builder b) {
    specs.forEach(b::add);
    aliases.forEach(a -> b.alias(a.getKey(), a.getValue()));
  }
}
