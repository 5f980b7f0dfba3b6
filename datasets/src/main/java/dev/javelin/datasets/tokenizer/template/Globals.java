package dev.javelin.datasets.tokenizer.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Functions every template sees: Jinja's {@code namespace}, {@code range}, {@code dict} and {@code
 * transformers}' {@code raise_exception}.
 */
final class Globals {
  private Globals() {}

  static Map<String, Object> functions() {
    return Map.of(
        "namespace", (TemplateFunction) Globals::namespace,
        "raise_exception", (TemplateFunction) Globals::raise,
        "range", (TemplateFunction) Globals::range,
        "dict",
            (TemplateFunction) (args, kwargs, line) -> new LinkedHashMap<Object, Object>(kwargs));
  }

  private static Object namespace(List<Object> args, Map<String, Object> kwargs, int line) {
    Namespace ns = new Namespace();
    for (Object arg : args) {
      if (!(arg instanceof Map<?, ?> map)) {
        throw TemplateException.at(line, "namespace() takes a dict or keyword arguments");
      }
      map.forEach((k, v) -> ns.attrs.put(PyValues.str(k), v));
    }
    ns.attrs.putAll(kwargs);
    return ns;
  }

  private static Object raise(List<Object> args, Map<String, Object> kwargs, int line) {
    String message = args.isEmpty() ? "raise_exception()" : PyValues.str(args.get(0));
    throw TemplateException.at(line, "template raised: " + message);
  }

  private static Object range(List<Object> args, Map<String, Object> kwargs, int line) {
    if (args.isEmpty() || args.size() > 3) {
      throw TemplateException.at(line, "range() takes 1 to 3 arguments");
    }
    long start = args.size() == 1 ? 0 : PyValues.toLong(args.get(0), line);
    long stop = PyValues.toLong(args.get(args.size() == 1 ? 0 : 1), line);
    long step = args.size() == 3 ? PyValues.toLong(args.get(2), line) : 1;
    if (step == 0) {
      throw TemplateException.at(line, "range() step must not be zero");
    }
    List<Object> values = new ArrayList<>();
    for (long i = start; step > 0 ? i < stop : i > stop; i += step) {
      if (values.size() >= 1_000_000) {
        throw TemplateException.at(line, "range() longer than 1,000,000 items");
      }
      values.add(i);
    }
    return values;
  }
}
