package dev.javelin.recipes.config;

import java.util.Objects;

/**
 * One recipe key: its dotted name (VeRL's where the concept is the same), type, default and a line
 * of doc.
 *
 * @param defaultValue the value when the recipe omits the key; {@code null} for none
 * @param required whether a recipe must set the key
 */
public record KeySpec(
    String name, KeyType type, Object defaultValue, boolean required, String doc) {
  public KeySpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(doc, "doc");
    if (defaultValue != null) {
      defaultValue = type.coerce(defaultValue);
    }
    if (required && defaultValue != null) {
      throw new IllegalArgumentException(name + ": a required key has no default");
    }
  }

  public static KeySpec of(String name, KeyType type, Object defaultValue, String doc) {
    return new KeySpec(name, type, defaultValue, false, doc);
  }

  public static KeySpec optional(String name, KeyType type, String doc) {
    return new KeySpec(name, type, null, false, doc);
  }

  public static KeySpec required(String name, KeyType type, String doc) {
    return new KeySpec(name, type, null, true, doc);
  }

  /** The command-line override {@code name=value}. */
  public String assign(Object value) {
    return name + "=" + value;
  }

  /** Whether the override {@code override} ({@code name=...}) sets this key. */
  public boolean isSetBy(String override) {
    return override.startsWith(name + "=");
  }
}
