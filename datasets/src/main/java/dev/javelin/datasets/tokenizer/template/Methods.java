package dev.javelin.datasets.tokenizer.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Python methods templates call on values: {@code str.startswith/split/strip/...} and dict methods.
 */
final class Methods {
  private static final Set<String> STRING =
      Set.of(
          "startswith",
          "endswith",
          "split",
          "strip",
          "lstrip",
          "rstrip",
          "lower",
          "upper",
          "title",
          "capitalize",
          "replace",
          "find",
          "count",
          "join",
          "isdigit",
          "isspace");
  private static final Set<String> DICT = Set.of("items", "keys", "values", "get");

  private Methods() {}

  static boolean isMethod(Object target, String name) {
    return (target instanceof String && STRING.contains(name))
        || (target instanceof Map && DICT.contains(name));
  }

  static TemplateFunction bind(Object target, String name) {
    return (args, kwargs, line) -> {
      if (!kwargs.isEmpty()) {
        throw TemplateException.at(line, "." + name + "() takes no keyword arguments here");
      }
      return target instanceof String s
          ? string(s, name, args, line)
          : dict((Map<?, ?>) target, name, args, line);
    };
  }

  private static Object string(String s, String name, List<Object> args, int line) {
    return switch (name) {
      case "startswith" -> anyAffix(args, line, s::startsWith);
      case "endswith" -> anyAffix(args, line, s::endsWith);
      case "split" ->
          split(
              s,
              optString(args, 0, line),
              args.size() > 1 ? PyValues.toLong(args.get(1), line) : -1);
      case "strip" -> strip(s, optString(args, 0, line), true, true);
      case "lstrip" -> strip(s, optString(args, 0, line), true, false);
      case "rstrip" -> strip(s, optString(args, 0, line), false, true);
      case "lower" -> s.toLowerCase(java.util.Locale.ROOT);
      case "upper" -> s.toUpperCase(java.util.Locale.ROOT);
      case "title" -> Filters.title(s);
      case "capitalize" -> Filters.capitalize(s);
      case "replace" -> Filters.replace(s, string(args, 0, line), string(args, 1, line), line);
      case "find" -> (long) s.indexOf(string(args, 0, line));
      case "count" -> (long) Filters.countOccurrences(s, string(args, 0, line));
      case "join" -> Filters.join(Access.asList(Filters.arg(args, 0, name, line), line), s);
      case "isdigit" -> !s.isEmpty() && s.chars().allMatch(Character::isDigit);
      case "isspace" -> !s.isEmpty() && s.chars().allMatch(Methods::isPySpace);
      default -> throw TemplateException.at(line, "unsupported string method ." + name + "()");
    };
  }

  private static Object dict(Map<?, ?> map, String name, List<Object> args, int line) {
    return switch (name) {
      case "items" -> {
        List<Object> pairs = new ArrayList<>();
        map.forEach((k, v) -> pairs.add(java.util.Arrays.asList(k, v)));
        yield pairs;
      }
      case "keys" -> new ArrayList<Object>(map.keySet());
      case "values" -> new ArrayList<Object>(map.values());
      case "get" -> {
        Object key = args.isEmpty() ? null : args.get(0);
        yield map.containsKey(key) ? map.get(key) : (args.size() > 1 ? args.get(1) : null);
      }
      default -> throw TemplateException.at(line, "unsupported dict method ." + name + "()");
    };
  }

  private static boolean anyAffix(
      List<Object> args, int line, java.util.function.Predicate<String> test) {
    Object arg = args.isEmpty() ? null : args.get(0);
    if (arg instanceof List<?> options) { // str.startswith(('a', 'b'))
      return options.stream().anyMatch(o -> o instanceof String x && test.test(x));
    }
    return test.test(string(args, 0, line));
  }

  /** Python {@code str.split(sep, maxsplit)}; without sep, splits on whitespace runs. */
  static List<Object> split(String s, String sep, long maxSplit) {
    List<Object> parts = new ArrayList<>();
    if (sep == null) {
      int i = 0;
      while (true) {
        while (i < s.length() && isPySpace(s.charAt(i))) {
          i++;
        }
        if (i == s.length()) {
          return parts;
        }
        if (maxSplit >= 0 && parts.size() == maxSplit) {
          parts.add(s.substring(i)); // the remainder keeps its trailing whitespace, as in Python
          return parts;
        }
        int j = i;
        while (j < s.length() && !isPySpace(s.charAt(j))) {
          j++;
        }
        parts.add(s.substring(i, j));
        i = j;
      }
    }
    if (sep.isEmpty()) {
      throw new TemplateException("chat template: split() separator is empty");
    }
    int from = 0;
    int at;
    while ((maxSplit < 0 || parts.size() < maxSplit) && (at = s.indexOf(sep, from)) >= 0) {
      parts.add(s.substring(from, at));
      from = at + sep.length();
    }
    parts.add(s.substring(from));
    return parts;
  }

  /** Python {@code strip/lstrip/rstrip}: whitespace, or any of {@code chars} when given. */
  static String strip(String s, String chars, boolean left, boolean right) {
    int start = 0;
    int end = s.length();
    while (left && start < end && stripped(s.charAt(start), chars)) {
      start++;
    }
    while (right && end > start && stripped(s.charAt(end - 1), chars)) {
      end--;
    }
    return s.substring(start, end);
  }

  private static boolean stripped(char c, String chars) {
    return chars == null ? isPySpace(c) : chars.indexOf(c) >= 0;
  }

  /** Python's {@code str.isspace} for one char. */
  static boolean isPySpace(int c) {
    return Character.isWhitespace(c) || Character.isSpaceChar(c) || c == 0x85;
  }

  private static String optString(List<Object> args, int i, int line) {
    return args.size() <= i || args.get(i) == null ? null : string(args, i, line);
  }

  private static String string(List<Object> args, int i, int line) {
    if (args.size() <= i || !(args.get(i) instanceof String s)) {
      throw TemplateException.at(line, "argument " + (i + 1) + " must be a string");
    }
    return s;
  }
}
