package dev.javelin.recipes.config;

import dev.javelin.grpo.RecipeKeyed;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The type of a recipe key's value, and how a YAML or command-line value is checked and converted.
 */
public sealed interface KeyType {

  /**
   * Converts a parsed YAML value; throws {@link IllegalArgumentException} with what was expected.
   */
  Object coerce(Object value);

  /** A readable name for messages, e.g. {@code int} or {@code one of [grpo, rloo]}. */
  String describe();

  KeyType INT = new Simple("int");
  KeyType LONG = new Simple("long");
  KeyType DOUBLE = new Simple("number");
  KeyType BOOL = new Simple("boolean");
  KeyType STRING = new Simple("string");
  KeyType STRING_LIST = new Simple("list of strings");
  KeyType MAP = new Simple("mapping");

  static KeyType oneOf(String... choices) {
    return new Choice(List.of(choices));
  }

  /** One of the recipe keys of {@code type}'s constants (VeRL's spellings). */
  static <E extends Enum<E> & RecipeKeyed> KeyType keysOf(Class<E> type) {
    return oneOf(RecipeKeyed.allKeys(type).toArray(new String[0]));
  }

  /** The built-in scalar and container types. */
  record Simple(String name) implements KeyType {
    @Override
    public Object coerce(Object v) {
      return switch (name) {
        case "int" -> Math.toIntExact(integral(v));
        case "long" -> integral(v);
        case "number" -> number(v);
        case "boolean" -> bool(v);
        case "string" -> string(v);
        case "list of strings" -> stringList(v);
        case "mapping" -> mapping(v);
        default -> throw new IllegalStateException(name);
      };
    }

    @Override
    public String describe() {
      return name;
    }

    private static long integral(Object v) {
      if (v instanceof Integer || v instanceof Long) {
        return ((Number) v).longValue();
      }
      if (v instanceof Double d && d == Math.rint(d) && Math.abs(d) < 1e15) {
        return d.longValue();
      }
      throw new IllegalArgumentException("expected an integer, got " + show(v));
    }

    private static double number(Object v) {
      if (v instanceof Number n) {
        return n.doubleValue();
      }
      if (v instanceof String s) {
        try {
          return Double.parseDouble(s.trim()); // YAML 1.2 reads "1e-6" as a string
        } catch (NumberFormatException e) {
          // fall through to the message below
        }
      }
      throw new IllegalArgumentException("expected a number, got " + show(v));
    }

    private static boolean bool(Object v) {
      if (v instanceof Boolean b) {
        return b;
      }
      if (v instanceof String s) {
        String lower = s.toLowerCase(Locale.ROOT);
        if (lower.equals("true") || lower.equals("false")) {
          return lower.equals("true");
        }
      }
      throw new IllegalArgumentException("expected true or false, got " + show(v));
    }

    private static String string(Object v) {
      if (v instanceof String || v instanceof Number || v instanceof Boolean) {
        return String.valueOf(v);
      }
      throw new IllegalArgumentException("expected a string, got " + show(v));
    }

    private static List<String> stringList(Object v) {
      if (v instanceof List<?> list) {
        List<String> out = new ArrayList<>();
        for (Object o : list) {
          out.add(string(o));
        }
        return List.copyOf(out);
      }
      return List.of(string(v)); // a single path is a list of one
    }

    private static Map<String, Object> mapping(Object v) {
      if (v instanceof Map<?, ?> m) {
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, val) -> out.put(String.valueOf(k), val));
        return java.util.Collections.unmodifiableMap(out);
      }
      throw new IllegalArgumentException("expected a mapping, got " + show(v));
    }
  }

  /** A string from a fixed set, e.g. an estimator or a loss mode. */
  record Choice(List<String> choices) implements KeyType {
    @Override
    public Object coerce(Object v) {
      String s = String.valueOf(v);
      if (!choices.contains(s)) {
        throw new IllegalArgumentException(
            "'" + s + "' is not one of " + choices + Suggestions.hint(s, choices));
      }
      return s;
    }

    @Override
    public String describe() {
      return "one of " + choices;
    }
  }

  private static String show(Object v) {
    return v == null ? "null" : "'" + v + "' (" + v.getClass().getSimpleName() + ")";
  }
}
