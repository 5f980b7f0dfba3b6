package dev.javelin.datasets.tokenizer.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Jinja filters ({@code x | name(args)}) and tests ({@code x is name}) that chat templates use. An
 * unknown name is an error naming it, never a silent pass-through.
 */
final class Filters {
  private Filters() {}

  static Object filter(
      String name, Object v, List<Object> args, Map<String, Object> kwargs, int line) {
    return switch (name) {
      case "trim" ->
          Methods.strip(
              string(v, name, line),
              args.isEmpty() ? null : string(args.get(0), name, line),
              true,
              true);
      case "length", "count" -> Access.length(v, line);
      case "string" -> PyValues.str(v);
      case "lower" -> string(v, name, line).toLowerCase(Locale.ROOT);
      case "upper" -> string(v, name, line).toUpperCase(Locale.ROOT);
      case "title" -> title(string(v, name, line));
      case "capitalize" -> capitalize(string(v, name, line));
      case "replace" ->
          replace(
              string(v, name, line),
              PyValues.str(arg(args, 0, name, line)),
              PyValues.str(arg(args, 1, name, line)),
              line);
      case "first" -> first(v, line);
      case "last" -> {
        List<?> list = Access.asList(v, line);
        yield list.isEmpty() ? new Undefined("last") : list.get(list.size() - 1);
      }
      case "list" -> new ArrayList<Object>(Access.asList(v, line));
      case "reverse" -> Access.slice(v, null, null, -1L, line);
      case "join" -> join(Access.asList(v, line), args.isEmpty() ? "" : PyValues.str(args.get(0)));
      case "default", "d" -> {
        boolean useIfFalsy = args.size() > 1 && PyValues.truthy(args.get(1));
        boolean missing = v instanceof Undefined || (useIfFalsy && !PyValues.truthy(v));
        yield missing ? (args.isEmpty() ? "" : args.get(0)) : v;
      }
      case "int" -> toInt(v);
      case "abs" ->
          v instanceof Long l ? (Object) Math.abs(l) : Math.abs(PyValues.toDouble(v, line));
      case "tojson" -> Json.write(v, indentOf(args, kwargs, line), line);
      case "items" -> {
        if (!(v instanceof Map)) { // found by ChatTemplateFuzzTest: `messages | items`
          throw TemplateException.at(
              line, "the items filter needs a mapping, got " + PyValues.typeName(v));
        }
        yield Methods.bind(v, "items").call(List.of(), Map.of(), line);
      }
      default -> throw TemplateException.at(line, "unsupported Jinja filter '" + name + "'");
    };
  }

  static boolean test(String name, Object v, List<Object> args, int line) {
    return switch (name) {
      case "defined" -> !(v instanceof Undefined);
      case "undefined" -> v instanceof Undefined;
      case "none" -> v == null;
      case "string" -> v instanceof String;
      case "number" -> v instanceof Long || v instanceof Double;
      case "integer" -> v instanceof Long;
      case "float" -> v instanceof Double;
      case "boolean" -> v instanceof Boolean;
      case "true" -> Boolean.TRUE.equals(v);
      case "false" -> Boolean.FALSE.equals(v);
      case "mapping" -> v instanceof Map || v instanceof Namespace;
      case "sequence", "iterable" -> v instanceof List || v instanceof String || v instanceof Map;
      case "odd" -> PyValues.toLong(v, line) % 2 != 0;
      case "even" -> PyValues.toLong(v, line) % 2 == 0;
      case "eq", "equalto", "==" -> PyValues.eq(v, arg(args, 0, name, line));
      case "ne", "!=" -> !PyValues.eq(v, arg(args, 0, name, line));
      case "in" -> PyValues.contains(arg(args, 0, name, line), v, line);
      default -> throw TemplateException.at(line, "unsupported Jinja test 'is " + name + "'");
    };
  }

  static String join(List<?> items, String sep) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < items.size(); i++) {
      if (i > 0) {
        sb.append(sep);
      }
      sb.append(PyValues.str(items.get(i)));
    }
    return sb.toString();
  }

  static String title(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    boolean prevCased = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      sb.append(prevCased ? Character.toLowerCase(c) : Character.toTitleCase(c));
      prevCased = Character.isLetter(c);
    }
    return sb.toString();
  }

  static String capitalize(String s) {
    return s.isEmpty()
        ? s
        : Character.toUpperCase(s.charAt(0)) + s.substring(1).toLowerCase(Locale.ROOT);
  }

  static int countOccurrences(String s, String sub) {
    if (sub.isEmpty()) {
      return s.codePointCount(0, s.length()) + 1;
    }
    int n = 0;
    for (int at = s.indexOf(sub); at >= 0; at = s.indexOf(sub, at + sub.length())) {
      n++;
    }
    return n;
  }

  private static Object first(Object v, int line) {
    List<?> list = Access.asList(v, line);
    return list.isEmpty() ? new Undefined("first") : list.get(0);
  }

  private static Object toInt(Object v) {
    if (v instanceof String s) {
      try {
        return Long.parseLong(s.strip());
      } catch (NumberFormatException e) {
        return 0L; // Jinja's int filter defaults to 0
      }
    }
    return PyValues.isNumber(v) ? PyValues.toLong(v) : 0L;
  }

  private static Integer indentOf(List<Object> args, Map<String, Object> kwargs, int line) {
    Object indent =
        kwargs.containsKey("indent") ? kwargs.get("indent") : (args.isEmpty() ? null : args.get(0));
    if (indent == null) {
      return null;
    }
    long n = PyValues.toLong(indent, line);
    if (n < 0 || n > 64) {
      throw TemplateException.at(line, "tojson indent must be 0..64, got " + n);
    }
    return (int) n;
  }

  /**
   * Argument {@code i} of filter or test {@code name}, or a template error saying it is missing.
   */
  static Object arg(List<Object> args, int i, String name, int line) {
    if (i >= args.size()) {
      throw TemplateException.at(line, "'" + name + "' needs " + (i + 1) + " argument(s)");
    }
    return args.get(i);
  }

  /** {@code s.replace(from, to)}, with the result's length checked before it is built. */
  static String replace(String s, String from, String to, int line) {
    long grows = (long) to.length() - from.length();
    if (grows > 0) {
      RenderBudget.checkChars(s.length() + grows * countOccurrences(s, from), line);
    }
    return s.replace(from, to);
  }

  private static String string(Object v, String filter, int line) {
    if (v instanceof String s) {
      return s;
    }
    if (v instanceof Undefined) {
      return "";
    }
    throw TemplateException.at(
        line, "filter '" + filter + "' needs a string, got " + PyValues.typeName(v));
  }
}
