package dev.javelin.rewards;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Typed, validated view of a reward function's keyword arguments. Every error names the function
 * and the key, and unknown keys are rejected so that a typo in a recipe fails at start-up.
 *
 * @param function the function name, for messages
 * @param values the raw keyword arguments (read-only copy)
 */
public record RewardKwargs(String function, Map<String, Object> values) {

  /** Copies the map; null means no arguments. */
  public RewardKwargs {
    function = function == null ? "?" : function;
    values = values == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** Wraps {@code values} and rejects any key outside {@code allowed}. */
  public static RewardKwargs of(String function, Map<String, Object> values, String... allowed) {
    RewardKwargs kw = new RewardKwargs(function, values);
    Set<String> known = Set.of(allowed);
    for (String key : kw.values.keySet()) {
      if (!known.contains(key)) {
        throw new RewardConfigException(
            "reward '"
                + kw.function
                + "': unknown keyword argument '"
                + key
                + "'; accepted: "
                + new TreeSet<>(known));
      }
    }
    return kw;
  }

  /** A number, or {@code fallback} when absent. */
  public double getDouble(String key, double fallback) {
    return get(key, fallback, "a finite number", RewardKwargs::finiteNumber);
  }

  /** A boolean ({@code true}/{@code false}, any case), or {@code fallback} when absent. */
  public boolean getBoolean(String key, boolean fallback) {
    return get(key, fallback, "true or false", RewardKwargs::bool);
  }

  /** A string, or {@code fallback} when absent. */
  public String getString(String key, String fallback) {
    return get(key, fallback, "a string", v -> v instanceof String s ? s : null);
  }

  /**
   * {@code key}'s value as {@code read} reads it, or {@code fallback} when absent; where {@code
   * read} gives null the value is not what the key takes, and the error says it should be {@code
   * expected}.
   */
  private <T> T get(String key, T fallback, String expected, Function<Object, T> read) {
    Object v = values.get(key);
    if (v == null) {
      return fallback;
    }
    T t = read.apply(v);
    if (t == null) {
      throw bad(key, expected, v);
    }
    return t;
  }

  /** A finite number, or a string that parses as one; else null. */
  private static Double finiteNumber(Object v) {
    if (v instanceof Number n && Double.isFinite(n.doubleValue())) {
      return n.doubleValue();
    }
    if (v instanceof String s) {
      try {
        double d = Double.parseDouble(s.trim());
        if (Double.isFinite(d)) {
          return d;
        }
      } catch (NumberFormatException e) {
        // not a number: null below
      }
    }
    return null;
  }

  /** A boolean, or the string true or false in any case; else null. */
  private static Boolean bool(Object v) {
    if (v instanceof Boolean b) {
      return b;
    }
    if (v instanceof String s && (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false"))) {
      return Boolean.parseBoolean(s);
    }
    return null;
  }

  /** A string that must be one of {@code choices}, or {@code fallback} when absent. */
  public String getChoice(String key, String fallback, String... choices) {
    String s = getString(key, fallback);
    for (String c : choices) {
      if (c.equals(s)) {
        return s;
      }
    }
    throw bad(key, "one of " + List.of(choices), s);
  }

  /** A list of maps (e.g. weighted components); empty when absent. */
  public List<Map<String, Object>> getMapList(String key) {
    Object v = values.get(key);
    if (v == null) {
      return List.of();
    }
    if (!(v instanceof List<?> list)) {
      throw bad(key, "a list of maps", v);
    }
    List<Map<String, Object>> out = new ArrayList<>();
    for (Object item : list) {
      out.add(asMap(key, item));
    }
    return out;
  }

  /** A nested map; empty when absent. */
  public Map<String, Object> getMap(String key) {
    Object v = values.get(key);
    return v == null ? Map.of() : asMap(key, v);
  }

  private Map<String, Object> asMap(String key, Object v) {
    if (!(v instanceof Map<?, ?> m)) {
      throw bad(key, "a map", v);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    m.forEach((k, val) -> out.put(String.valueOf(k), val));
    return out;
  }

  private RewardConfigException bad(String key, String expected, Object got) {
    return new RewardConfigException(
        "reward '"
            + function
            + "': keyword argument '"
            + key
            + "' must be "
            + expected
            + ", got "
            + got);
  }
}
