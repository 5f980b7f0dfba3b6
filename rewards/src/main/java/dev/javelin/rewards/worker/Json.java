package dev.javelin.rewards.worker;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON the reward workers speak: maps, lists, strings, numbers, booleans and null. Integers
 * read back as {@code Integer}, {@code Long} or {@code BigInteger} (the narrowest that fits) and
 * other numbers as {@code Double}, as Jackson and SnakeYAML hand them to rewards in process.
 * Non-finite doubles are written as null; objects of other types as their {@code toString()}.
 * Reading is bounded: nesting deeper than {@value #MAX_DEPTH} levels is refused.
 */
public final class Json {
  static final int MAX_DEPTH = 64;

  private Json() {}

  /** The JSON text of {@code value}. */
  public static String write(Object value) {
    StringBuilder b = new StringBuilder();
    write(b, value, 0);
    return b.toString();
  }

  /** Appends the JSON text of {@code value}. */
  public static void write(StringBuilder b, Object value) {
    write(b, value, 0);
  }

  private static void write(StringBuilder b, Object v, int depth) {
    if (depth > MAX_DEPTH) {
      throw new IllegalArgumentException("value nested deeper than " + MAX_DEPTH + " levels");
    }
    if (v == null) {
      b.append("null");
    } else if (v instanceof String s) {
      string(b, s);
    } else if (v instanceof Boolean bool) {
      b.append(bool.booleanValue());
    } else if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      b.append(Double.isFinite(d) ? Double.toString(d) : "null");
    } else if (v instanceof BigDecimal bd) {
      b.append(bd.toString());
    } else if (v instanceof Number n) {
      b.append(n instanceof BigInteger ? n.toString() : Long.toString(n.longValue()));
    } else if (v instanceof Map<?, ?> m) {
      object(b, m, depth);
    } else if (v instanceof Collection<?> c) {
      array(b, c, depth);
    } else if (v.getClass().isArray()) {
      List<Object> items = new ArrayList<>();
      for (int i = 0; i < Array.getLength(v); i++) {
        items.add(Array.get(v, i));
      }
      array(b, items, depth);
    } else {
      string(b, String.valueOf(v));
    }
  }

  private static void object(StringBuilder b, Map<?, ?> m, int depth) {
    b.append('{');
    boolean first = true;
    for (Map.Entry<?, ?> e : m.entrySet()) {
      if (!first) {
        b.append(',');
      }
      first = false;
      string(b, String.valueOf(e.getKey()));
      b.append(':');
      write(b, e.getValue(), depth + 1);
    }
    b.append('}');
  }

  private static void array(StringBuilder b, Collection<?> c, int depth) {
    b.append('[');
    boolean first = true;
    for (Object item : c) {
      if (!first) {
        b.append(',');
      }
      first = false;
      write(b, item, depth + 1);
    }
    b.append(']');
  }

  private static void string(StringBuilder b, String s) {
    b.append('"');
    int run = 0; // start of the characters not yet copied, which need no escape
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c != '"' && c != '\\' && !Character.isSurrogate(c)) {
        continue;
      }
      b.append(s, run, i);
      run = i + 1;
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> escapeOther(b, s, i, c);
      }
    }
    b.append(s, run, s.length()).append('"');
  }

  /** Control characters as \\u escapes; a surrogate pair as it is, a lone surrogate escaped. */
  private static void escapeOther(StringBuilder b, String s, int i, char c) {
    boolean pairHigh =
        Character.isHighSurrogate(c)
            && i + 1 < s.length()
            && Character.isLowSurrogate(s.charAt(i + 1));
    boolean pairLow =
        Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    if (pairHigh || pairLow) {
      b.append(c); // valid UTF-16: UTF-8 encodes the pair as one code point
    } else {
      b.append(String.format("\\u%04x", (int) c));
    }
  }

  /** Parses one JSON value; malformed text throws {@link IllegalArgumentException}. */
  public static Object read(String text) {
    JsonParser p = new JsonParser(text);
    Object v = p.value(0);
    p.end();
    return v;
  }

  /** Parses a JSON object; anything else throws {@link IllegalArgumentException}. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> readObject(String text) {
    Object v = read(text);
    if (!(v instanceof Map)) {
      throw new IllegalArgumentException("expected a JSON object");
    }
    return (Map<String, Object>) v;
  }

  /** A fresh insertion-ordered map, the type objects read into. */
  static Map<String, Object> newObject() {
    return new LinkedHashMap<>();
  }
}
