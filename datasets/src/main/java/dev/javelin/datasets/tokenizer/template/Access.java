package dev.javelin.datasets.tokenizer.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reading values: {@code x.attr}, {@code x[key]}, {@code x[a:b:c]}, iteration and length, with
 * Python's negative indices and code-point strings. Missing keys give {@link Undefined}, as in
 * Jinja.
 */
final class Access {
  private Access() {}

  static Object attr(Object target, String name, int line) {
    if (target instanceof Undefined u) {
      throw TemplateException.at(line, "'" + u.name() + "' is undefined (reading ." + name + ")");
    }
    if (target instanceof Namespace ns) {
      return ns.attrs.containsKey(name) ? ns.attrs.get(name) : new Undefined(name);
    }
    if (target instanceof Map<?, ?> map) {
      if (map.containsKey(name)) {
        return map.get(name);
      }
      return Methods.isMethod(target, name) ? Methods.bind(target, name) : new Undefined(name);
    }
    if (Methods.isMethod(target, name)) {
      return Methods.bind(target, name);
    }
    return new Undefined(name);
  }

  static Object item(Object target, Object key, int line) {
    if (target instanceof Undefined u) {
      throw TemplateException.at(
          line, "'" + u.name() + "' is undefined (reading [" + PyValues.repr(key) + "])");
    }
    if (target instanceof Map<?, ?> map) {
      return map.containsKey(key) ? map.get(key) : new Undefined(PyValues.str(key));
    }
    if (target instanceof Namespace && key instanceof String name) {
      return attr(target, name, line);
    }
    if (target instanceof List<?> list && key instanceof Long index) {
      int i = (int) (index < 0 ? index + list.size() : index);
      return i >= 0 && i < list.size() ? list.get(i) : new Undefined("[" + index + "]");
    }
    if (target instanceof String s && key instanceof Long index) {
      int[] cps = s.codePoints().toArray();
      int i = (int) (index < 0 ? index + cps.length : index);
      return i >= 0 && i < cps.length ? new String(cps, i, 1) : new Undefined("[" + index + "]");
    }
    if (key instanceof String name) {
      return attr(target, name, line);
    }
    throw TemplateException.at(
        line, "cannot index " + PyValues.typeName(target) + " with " + PyValues.typeName(key));
  }

  /** Python slicing of a list or string; null bounds mean "from the end" per the step's sign. */
  static Object slice(Object target, Object start, Object stop, Object step, int line) {
    long st = step == null ? 1 : PyValues.toLong(requireInt(step, line));
    if (st == 0) {
      throw TemplateException.at(line, "slice step cannot be zero");
    }
    List<Object> items = new ArrayList<>();
    boolean isString = target instanceof String;
    int[] cps = isString ? ((String) target).codePoints().toArray() : null;
    List<?> list = isString ? null : asList(target, line);
    int n = isString ? cps.length : list.size();
    long lo = bound(start, n, st > 0 ? 0 : n - 1, st, line);
    long hi = bound(stop, n, st > 0 ? n : -1, st, line);
    StringBuilder sb = new StringBuilder();
    for (long i = lo; st > 0 ? i < hi : i > hi; i += st) {
      if (isString) {
        sb.appendCodePoint(cps[(int) i]);
      } else {
        items.add(list.get((int) i));
      }
    }
    return isString ? sb.toString() : items;
  }

  private static long bound(Object v, int n, long missing, long step, int line) {
    if (v == null) {
      return missing;
    }
    long i = PyValues.toLong(requireInt(v, line));
    if (i < 0) {
      i += n;
    }
    return step > 0 ? Math.max(0, Math.min(i, n)) : Math.max(-1, Math.min(i, n - 1));
  }

  private static Object requireInt(Object v, int line) {
    if (!(v instanceof Long) && !(v instanceof Boolean)) {
      throw TemplateException.at(
          line, "slice indices must be integers, not " + PyValues.typeName(v));
    }
    return v;
  }

  /** The items a {@code for} loop or filter walks: list items, dict keys, string chars. */
  static List<?> asList(Object v, int line) {
    if (v instanceof List<?> list) {
      return list;
    }
    if (v instanceof Map<?, ?> map) {
      return new ArrayList<>(map.keySet());
    }
    if (v instanceof String s) {
      List<Object> chars = new ArrayList<>();
      s.codePoints().forEach(cp -> chars.add(new String(Character.toChars(cp))));
      return chars;
    }
    if (v instanceof Undefined) {
      return List.of();
    }
    throw TemplateException.at(line, PyValues.typeName(v) + " is not iterable");
  }

  static long length(Object v, int line) {
    if (v instanceof String s) {
      return s.codePointCount(0, s.length());
    }
    if (v instanceof Map<?, ?> map) {
      return map.size();
    }
    if (v instanceof Undefined) {
      return 0;
    }
    return asList(v, line).size();
  }
}
