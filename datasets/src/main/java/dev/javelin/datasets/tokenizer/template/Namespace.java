package dev.javelin.datasets.tokenizer.template;

import java.util.LinkedHashMap;
import java.util.Map;

/** Jinja's {@code namespace(...)}: the one mutable object, so a loop body can carry state out. */
final class Namespace {
  final Map<String, Object> attrs = new LinkedHashMap<>();
}
