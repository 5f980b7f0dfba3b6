package dev.javelin.rewards;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The recipe's {@code custom_reward_function} section, mirroring VeRL's {@code
 * custom_reward_function.path/name/reward_kwargs}: {@code path} names a jar, a classes folder or
 * one {@code .java} file holding the reward's code ({@link RewardCode}), {@code class} names a Java
 * class (a {@link RewardFunction} or a {@link RewardFunctionProvider}), {@code name} a registered
 * function or a class name, and none of them means the data-source dispatcher ({@link
 * DataSourceDispatcher}).
 *
 * @param path the reward's code (jar, classes folder or .java file), or null
 * @param className fully-qualified class name, or null
 * @param name registered function name or class name, or null
 * @param kwargs keyword arguments passed to the function
 */
public record RewardSpec(String path, String className, String name, Map<String, Object> kwargs) {

  private static final Set<String> KEYS = Set.of("path", "class", "name", "reward_kwargs");

  /** Blank strings become null; kwargs are copied. */
  public RewardSpec {
    path = blankToNull(path);
    className = blankToNull(className);
    name = blankToNull(name);
    kwargs = kwargs == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(kwargs));
  }

  /** A spec without code of its own: the class or name resolves on the class path. */
  public RewardSpec(String className, String name, Map<String, Object> kwargs) {
    this(null, className, name, kwargs);
  }

  private static String blankToNull(String v) {
    return v == null || v.isBlank() ? null : v.trim();
  }

  /** The default: dispatch by data source with default arguments. */
  public static RewardSpec dispatcher() {
    return new RewardSpec(null, null, Map.of());
  }

  /** A registered function by name. */
  public static RewardSpec named(String name, Map<String, Object> kwargs) {
    return new RewardSpec(null, name, kwargs);
  }

  /** Reads a recipe section ({@code path}, {@code class}, {@code name}, {@code reward_kwargs}). */
  public static RewardSpec fromRecipe(Map<String, Object> section) {
    if (section == null) {
      return dispatcher();
    }
    for (String key : section.keySet()) {
      if (!KEYS.contains(key)) {
        throw new RewardConfigException(
            "unknown reward key '" + key + "'; accepted: path, class, name, reward_kwargs");
      }
    }
    Object kw = section.get("reward_kwargs");
    if (kw != null && !(kw instanceof Map)) {
      throw new RewardConfigException(
          RewardConfigException.Field.KWARGS, "must be a map, got " + kw);
    }
    Map<String, Object> kwargs = new LinkedHashMap<>();
    if (kw instanceof Map<?, ?> m) {
      m.forEach((k, v) -> kwargs.put(String.valueOf(k), v));
    }
    return new RewardSpec(
        str(section, "path"), str(section, "class"), str(section, "name"), kwargs);
  }

  private static String str(Map<String, Object> section, String key) {
    Object v = section.get(key);
    if (v != null && !(v instanceof String)) {
      throw new RewardConfigException("'" + key + "' must be a string, got " + v);
    }
    return (String) v;
  }
}
