package dev.javelin.recipes.config;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The set of keys a recipe may contain. Immutable once built. */
public final class Schema {
  private final Map<String, KeySpec> keys;
  private final Map<String, String> aliases;

  private Schema(Map<String, KeySpec> keys, Map<String, String> aliases) {
    this.keys = Map.copyOf(keys);
    this.aliases = Map.copyOf(aliases);
  }

  public static Builder builder() {
    return new Builder();
  }

  public Optional<KeySpec> key(String name) {
    return Optional.ofNullable(keys.get(name));
  }

  /**
   * The key {@code name} stands for: itself, or the key it is another spelling of (a VeRL key that
   * moved, e.g. DAPO's {@code reward_model.reward_kwargs.overlong_buffer_cfg.len}).
   */
  public String canonical(String name) {
    return aliases.getOrDefault(name, name);
  }

  /** The other spellings and the keys they stand for. */
  public Map<String, String> aliases() {
    return aliases;
  }

  /**
   * The mapping-typed key that {@code name} is a dotted entry of ({@code
   * actor_rollout_ref.model.override_config} for {@code ...override_config.rope_theta}), if any:
   * Hydra's {@code +section.key=value} into a free-form section.
   */
  public Optional<String> mapKeyAbove(String name) {
    for (int dot = name.lastIndexOf('.'); dot > 0; dot = name.lastIndexOf('.', dot - 1)) {
      if (isMapKey(name.substring(0, dot))) {
        return Optional.of(name.substring(0, dot));
      }
    }
    return Optional.empty();
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
    private final Map<String, String> aliases = new LinkedHashMap<>();

    public Builder add(KeySpec spec) {
      if (keys.put(spec.name(), spec) != null) {
        throw new IllegalArgumentException("key declared twice: " + spec.name());
      }
      return this;
    }

    /** {@code alias} is another spelling of {@code target}, which must be declared. */
    public Builder alias(String alias, KeySpec target) {
      if (keys.containsKey(alias) || aliases.put(alias, target.name()) != null) {
        throw new IllegalArgumentException("key declared twice: " + alias);
      }
      return this;
    }

    public Schema build() {
      aliases
          .values()
          .forEach(
              t -> {
                if (!keys.containsKey(t)) {
                  throw new IllegalArgumentException("alias of an undeclared key: " + t);
                }
              });
      return new Schema(keys, aliases);
    }
  }
}
