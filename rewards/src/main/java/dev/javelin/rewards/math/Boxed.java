package dev.javelin.rewards.math;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
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
    int at = lastCommand(s, s.length());
    return at < 0 ? Optional.empty() : contentAt(s, at);
  }

  /**
   * The contents of the last {@code k} boxes in reading order, when they all lie in the final
   * paragraph (no blank line between the first of them and the end); else an empty list. For one
   * answer split over boxes: {@code \boxed{-1} and \boxed{-9}}.
   */
  public static List<String> lastContents(String s, int k) {
    List<String> out = new ArrayList<>(k);
    int from = s.length();
    int first = -1;
    int last = -1;
    for (int n = 0; n < k; n++) {
      int at = lastCommand(s, from);
      Optional<String> c = at < 0 ? Optional.empty() : contentAt(s, at);
      if (c.isEmpty()) {
        return List.of();
      }
      out.add(c.get());
      last = n == 0 ? at : last;
      first = at;
      from = at - 1;
    }
    if (s.substring(first, last).contains("\n\n")) {
      return List.of();
    }
    Collections.reverse(out);
    return out;
  }

  private static Optional<String> contentAt(String s, int at) {
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

  /** Start of the last {@code \boxed} or {@code \fbox} at or before {@code from}. */
  private static int lastCommand(String s, int from) {
    if (from < 0) {
      return -1;
    }
    return Math.max(Latex.lastIndexOf(s, "\\boxed", from), Latex.lastIndexOf(s, "\\fbox", from));
  }
}
