package dev.javelin.datasets.tokenizer.template;

import java.util.List;

/**
 * Bounds on one render, so that a hostile or broken template (a chat template ships inside a
 * downloaded {@code tokenizer_config.json}) fails with a {@link TemplateException} instead of
 * hanging the caller or exhausting its memory. Real chat templates stay far below every bound.
 */
final class RenderBudget {
  /**
   * Statements run, loop iterations and expressions evaluated. Real chat templates take tens per
   * message, so this allows conversations of tens of thousands of messages, and it stops a runaway
   * loop within seconds.
   */
  static final long MAX_STEPS = 2_000_000;

  /** Longest string a template may build, and longest output (16 Mi characters). */
  static final int MAX_CHARS = 16 << 20;

  /** Longest list a template may build ({@code range()} stops at 1,000,000 items). */
  static final int MAX_ITEMS = 1 << 20;

  private long steps;

  void step(int line) {
    if (++steps > MAX_STEPS) {
      throw TemplateException.at(
          line, "rendering took more than " + MAX_STEPS + " steps (a loop that does not end?)");
    }
  }

  /** {@code value}, after checking that a string or list it is stays within the bounds. */
  static Object checked(Object value, int line) {
    if (value instanceof String s) {
      checkChars(s.length(), line);
    } else if (value instanceof List<?> l && l.size() > MAX_ITEMS) {
      throw TemplateException.at(
          line, "a list of " + l.size() + " items is longer than " + MAX_ITEMS);
    }
    return value;
  }

  /** Checks a string length before (or after) it is built. */
  static void checkChars(long chars, int line) {
    if (chars > MAX_CHARS) {
      throw TemplateException.at(
          line, "a string of " + chars + " characters is longer than " + MAX_CHARS);
    }
  }
}
