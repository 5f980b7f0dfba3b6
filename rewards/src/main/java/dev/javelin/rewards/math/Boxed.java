package dev.javelin.rewards.math;

import java.util.Optional;

/**
 * Finds the last {@code \boxed{...}}, {@code \boxed ...} or {@code \fbox{...}} of a response and
 * returns its content, matching braces. One backward search plus one forward scan: linear, with no
 * recursion, whatever the nesting.
 */
public final class Boxed {

  private Boxed() {}

  /** Longest box content considered; a longer box counts as no answer (no real answer is). */
  public static final int MAX_CONTENT_CHARS = MathEquivalence.MAX_ANSWER_CHARS;

  /** The content of the last box, or empty when there is none, it is unbalanced or too long. */
  public static Optional<String> lastContent(String s) {
    int at = lastCommand(s);
    if (at < 0) {
      return Optional.empty();
    }
    int i = at + (s.startsWith("\\boxed", at) ? "\\boxed".length() : "\\fbox".length());
    int j = i;
    while (j < s.length() && s.charAt(j) == ' ') {
      j++;
    }
    if (j < s.length() && s.charAt(j) != '{' && j > i) {
      // "\boxed 5": up to the next '$' or end of line, as in the MATH harness.
      int end = j;
      int stop = (int) Math.min(s.length(), (long) j + MAX_CONTENT_CHARS);
      while (end < stop && s.charAt(end) != '$' && s.charAt(end) != '\n') {
        end++;
      }
      String content = s.substring(j, end).strip();
      return content.isEmpty() ? Optional.empty() : Optional.of(content);
    }
    if (j >= s.length() || s.charAt(j) != '{') {
      return Optional.empty();
    }
    int close = Latex.matchBrace(s, j, MAX_CONTENT_CHARS + 2);
    return close < 0 ? Optional.empty() : Optional.of(s.substring(j + 1, close));
  }

  /** Start of the last {@code \boxed} or {@code \fbox}. */
  private static int lastCommand(String s) {
    return Math.max(
        Latex.lastIndexOf(s, "\\boxed", s.length()), Latex.lastIndexOf(s, "\\fbox", s.length()));
  }
}
