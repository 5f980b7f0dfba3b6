package dev.javelin.recipes.config;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The set of keys a recipe may contain. Immutable once built. */
public final class Schema {
  private final Map<String, KeySpec> keys;

  private Schema(Map<String, KeySpec> keys) {
    this.keys = Map.copyOf(keys);
  }

  public static Builder builder() {
    return new Builder();
  }

  public Optional<KeySpec> key(String name) {
    return Optional.ofNullable(keys.get(name));
  }

  public Collection<String> names() {
    return keys.keySet();
  }

  public Collection<KeySpec> specs() {
    return keys.values();
  }

  /**
   * Whether {@code prefix} is a mapping-typed key whose value is kept whole (e.g. reward kwargs)
   * rather than flattened into dotted keys.
   */
  public boolean isMapKey(String name) {
    KeySpec k = keys.get(name);
    return k != null && k.type() == KeyType.MAP;
  }

  /** Collects key specs; a repeated name is a programming error. */
  public static final class Builder {
    private final Map<String, KeySpec> keys = new LinkedHashMap<>();

    public Builder add(KeySpec spec) {
      if (keys.put(spec.name(), spec) != null) {
        throw new IllegalArgumentException("key declared twice: " + spec.name());
      }
      return this;
    }

    public Schema build() {
      return new Schema(keys);
    }
  }
}
