package dev.javelin.datasets.tokenizer.template;

import java.util.List;
import java.util.Map;

/** A callable template value: a global such as {@code namespace} or a bound string/dict method. */
@FunctionalInterface
interface TemplateFunction {
  Object call(List<Object> args, Map<String, Object> kwargs, int line);
}
