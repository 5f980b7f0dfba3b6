package dev.javelin.datasets.tokenizer.template;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Python value semantics for the template's values: {@code String}, {@code Long}, {@code Double},
 * {@code Boolean}, {@code null} (None), {@code List}, {@code Map}, {@link Namespace}, {@link
 * Undefined}. Truthiness, {@code str()}, {@code repr()}, equality, ordering and the arithmetic
 * operators follow Python because templates were written against it.
 */
final class PyValues {
  /** Python's names of the value types a template sees, for messages. */
  private static final List<Map.Entry<Class<?>, String>> TYPE_NAMES =
      List.of(
          Map.entry(String.class, "string"),
          Map.entry(Boolean.class, "bool"),
          Map.entry(Long.class, "int"),
          Map.entry(Double.class, "float"),
          Map.entry(List.class, "list"),
          Map.entry(Map.class, "dict"));

  private PyValues() {}

  static boolean truthy(Object v) {
    if (v == null || v instanceof Undefined) {
      return false;
    }
    if (v instanceof Boolean b) {
      return b;
    }
    if (v instanceof String s) {
      return !s.isEmpty();
    }
    if (v instanceof Long l) {
      return l != 0;
    }
    if (v instanceof Double d) {
      return d != 0;
    }
    if (v instanceof Collection<?> c) {
      return !c.isEmpty();
    }
    if (v instanceof Map<?, ?> m) {
      return !m.isEmpty();
    }
    return true;
  }

  /** Python {@code str(v)}; undefined prints as the empty string, as Jinja does. */
  static String str(Object v) {
    if (v instanceof String s) {
      return s;
    }
    if (v instanceof Undefined) {
      return "";
    }
    return repr(v);
  }

  static String repr(Object v) {
    if (v == null) {
      return "None";
    }
    if (v instanceof Boolean b) {
      return b ? "True" : "False";
    }
    if (v instanceof String s) {
      return "'" + s.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'";
    }
    if (v instanceof Double d) {
      return d == Math.rint(d) && !d.isInfinite() && Math.abs(d) < 1e16
          ? String.format("%.1f", d)
          : d.toString();
    }
    if (v instanceof List<?> list) {
      List<String> items = new ArrayList<>();
      list.forEach(x -> items.add(repr(x)));
      return "[" + String.join(", ", items) + "]";
    }
    if (v instanceof Map<?, ?> map) {
      List<String> items = new ArrayList<>();
      map.forEach((k, x) -> items.add(repr(k) + ": " + repr(x)));
      return "{" + String.join(", ", items) + "}";
    }
    if (v instanceof Namespace ns) {
      return "<Namespace " + repr(ns.attrs) + ">";
    }
    if (v instanceof Undefined) {
      return "";
    }
    return String.valueOf(v);
  }

  static boolean isNumber(Object v) {
    return v instanceof Long || v instanceof Double || v instanceof Boolean;
  }

  static double toDouble(Object v) {
    return v instanceof Boolean b ? (b ? 1 : 0) : ((Number) v).doubleValue();
  }

  private static boolean isIntegral(Object v) {
    return v instanceof Long || v instanceof Boolean;
  }

  static long toLong(Object v) {
    return v instanceof Boolean b ? (b ? 1 : 0) : ((Number) v).longValue();
  }

  /** {@code v} as an integer, or a template error naming what it was instead. */
  static long toLong(Object v, int line) {
    if (!isIntegral(v)) {
      throw TemplateException.at(line, "expected an integer, got " + typeName(v));
    }
    return toLong(v);
  }

  /** {@code v} as a number, or a template error naming what it was instead. */
  static double toDouble(Object v, int line) {
    if (!isNumber(v)) {
      throw TemplateException.at(line, "expected a number, got " + typeName(v));
    }
    return toDouble(v);
  }

  static boolean eq(Object a, Object b) {
    if (isNumber(a) && isNumber(b)) {
      return toDouble(a) == toDouble(b);
    }
    if (a instanceof Undefined || b instanceof Undefined) {
      return a instanceof Undefined && b instanceof Undefined;
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!eq(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    return Objects.equals(a, b);
  }

  /** Python ordering for {@code < <= > >=}: numbers with numbers, strings with strings. */
  static int compare(Object a, Object b, int line) {
    if (isNumber(a) && isNumber(b)) {
      return Double.compare(toDouble(a), toDouble(b));
    }
    if (a instanceof String x && b instanceof String y) {
      return x.compareTo(y);
    }
    throw TemplateException.at(line, "cannot order " + typeName(a) + " and " + typeName(b));
  }

  static Object arithmetic(String op, Object a, Object b, int line) {
    if (op.equals("+")) {
      if (a instanceof String x && b instanceof String y) {
        return x + y;
      }
      if (a instanceof List<?> x && b instanceof List<?> y) {
        List<Object> joined = new ArrayList<>(x);
        joined.addAll(y);
        return joined;
      }
    }
    if (op.equals("*") && a instanceof String s && isIntegral(b)) {
      long times = Math.max(0, toLong(b));
      // checked before repeating: 'x' * 10**12 must fail, not allocate
      if (s.isEmpty()) {
        return s;
      }
      RenderBudget.checkChars(Math.min(times, Integer.MAX_VALUE) * s.length(), line);
      return s.repeat((int) times);
    }
    if (!isNumber(a) || !isNumber(b)) {
      throw TemplateException.at(
          line, "unsupported operand types for " + op + ": " + typeName(a) + " and " + typeName(b));
    }
    boolean ints = isIntegral(a) && isIntegral(b);
    return switch (op) {
      case "+" -> ints ? (Object) (toLong(a) + toLong(b)) : toDouble(a) + toDouble(b);
      case "-" -> ints ? (Object) (toLong(a) - toLong(b)) : toDouble(a) - toDouble(b);
      case "*" -> ints ? (Object) (toLong(a) * toLong(b)) : toDouble(a) * toDouble(b);
      case "/" -> divide(toDouble(a), toDouble(b), line);
      case "//" ->
          ints
              ? (Object) Math.floorDiv(toLong(a), nonZero(toLong(b), line))
              : Math.floor(divide(toDouble(a), toDouble(b), line));
      case "%" ->
          ints
              ? (Object) Math.floorMod(toLong(a), nonZero(toLong(b), line))
              : pyMod(toDouble(a), toDouble(b), line);
      case "**" ->
          ints && toLong(b) >= 0
              ? (Object) intPow(toLong(a), toLong(b), line)
              : Math.pow(toDouble(a), toDouble(b));
      default -> throw TemplateException.at(line, "unknown operator " + op);
    };
  }

  private static long intPow(long base, long exponent, int line) {
    if (base == 0 || base == 1 || base == -1) { // the only bases whose powers never overflow
      return exponent == 0 ? 1 : (base == -1 && exponent % 2 == 0 ? 1 : base);
    }
    long result = 1;
    try {
      for (long i = 0; i < exponent; i++) {
        result = Math.multiplyExact(result, base);
      }
    } catch (ArithmeticException e) {
      throw TemplateException.at(line, "integer overflow in " + base + " ** " + exponent);
    }
    return result;
  }

  private static double divide(double a, double b, int line) {
    if (b == 0) {
      throw TemplateException.at(line, "division by zero");
    }
    return a / b;
  }

  private static long nonZero(long b, int line) {
    if (b == 0) {
      throw TemplateException.at(line, "division by zero");
    }
    return b;
  }

  private static double pyMod(double a, double b, int line) {
    divide(a, b, line); // rejects b == 0
    double r = a % b;
    return r != 0 && (r < 0) != (b < 0) ? r + b : r;
  }

  /** Python {@code x in container}: substring, list membership or dict key. */
  static boolean contains(Object container, Object item, int line) {
    if (container instanceof String s) {
      if (!(item instanceof String sub)) {
        throw TemplateException.at(line, "'in <string>' requires a string, not " + typeName(item));
      }
      return s.contains(sub);
    }
    if (container instanceof List<?> list) {
      return list.stream().anyMatch(x -> eq(x, item));
    }
    if (container instanceof Map<?, ?> map) {
      return map.containsKey(item);
    }
    if (container instanceof Undefined u) {
      throw TemplateException.at(line, "'" + u.name() + "' is undefined");
    }
    throw TemplateException.at(line, typeName(container) + " does not support 'in'");
  }

  static String typeName(Object v) {
    if (v == null) {
      return "none";
    }
    if (v instanceof Undefined u) {
      return "undefined '" + u.name() + "'";
    }
    for (Map.Entry<Class<?>, String> t : TYPE_NAMES) {
      if (t.getKey().isInstance(v)) {
        return t.getValue();
      }
    }
    return v.getClass().getSimpleName();
  }
}
