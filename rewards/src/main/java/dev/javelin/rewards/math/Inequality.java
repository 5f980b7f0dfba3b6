package dev.javelin.rewards.math;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads an inequality in one variable as the interval it describes: {@code \frac12 \le x \le 8} is
 * {@code [\frac12, 8]}, {@code x > 3} is {@code (3, \infty)}, {@code 2 \ge x} is {@code (-\infty,
 * 2]}. Strictness decides the bracket, so {@code 1 < x \le 8} is not {@code [1, 8]}.
 */
final class Inequality {

  /**
   * One comparison sign: {@code less} for {@code <} and {@code \le}, {@code strict} for < and >.
   */
  private record Rel(int at, int length, boolean less, boolean strict) {}

  private Inequality() {}

  /** The interval {@code s} describes, or null when it is not a one-variable inequality. */
  static Answer interval(String s) {
    List<Rel> rels = relations(s);
    if (rels.isEmpty() || rels.size() > 2) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    int from = 0;
    for (Rel r : rels) {
      parts.add(s.substring(from, r.at()).strip());
      from = r.at() + r.length();
    }
    parts.add(s.substring(from).strip());
    if (parts.stream().anyMatch(String::isEmpty)) {
      return null;
    }
    if (rels.size() == 1) {
      Rel r = rels.get(0);
      if (isName(parts.get(0))) { // x < b, x > a
        return r.less()
            ? build(s, null, false, parts.get(1), r.strict())
            : build(s, parts.get(1), r.strict(), null, false);
      }
      if (isName(parts.get(1))) { // a < x, b > x
        return r.less()
            ? build(s, parts.get(0), r.strict(), null, false)
            : build(s, null, false, parts.get(0), r.strict());
      }
      return null;
    }
    Rel r1 = rels.get(0);
    Rel r2 = rels.get(1);
    if (r1.less() != r2.less()
        || !isName(parts.get(1))
        || isName(parts.get(0))
        || isName(parts.get(2))) {
      return null;
    }
    return r1.less()
        ? build(s, parts.get(0), r1.strict(), parts.get(2), r2.strict())
        : build(s, parts.get(2), r2.strict(), parts.get(0), r1.strict());
  }

  private static Answer build(String s, String lo, boolean loOpen, String hi, boolean hiOpen) {
    List<Answer> ends =
        List.of(
            AnswerParser.parse(lo == null ? "-\\infty" : lo),
            AnswerParser.parse(hi == null ? "\\infty" : hi));
    char open = lo == null || loOpen ? '(' : '[';
    char close = hi == null || hiOpen ? ')' : ']';
    return new Answer.Bracketed(s, open, close, ends);
  }

  private static boolean isName(String part) {
    return AnswerParser.SIMPLE_NAME.matcher(part).matches() && !part.strip().startsWith("\\infty");
  }

  /** The top-level comparison signs of {@code s}, at most three (more: not an interval). */
  private static List<Rel> relations(String s) {
    List<Rel> rels = new ArrayList<>();
    int depth = 0;
    for (int i = 0; i < s.length() && rels.size() < 3; i++) {
      char c = s.charAt(i);
      if (c == '(' || c == '[' || c == '{') {
        depth++;
      } else if (c == ')' || c == ']' || c == '}') {
        depth--;
      } else if (depth == 0 && (c == '<' || c == '>')) {
        boolean orEqual = i + 1 < s.length() && s.charAt(i + 1) == '=';
        rels.add(new Rel(i, orEqual ? 2 : 1, c == '<', !orEqual));
      } else if (depth == 0 && c == '\\') {
        Rel r = command(s, i);
        if (r != null) {
          rels.add(r);
          i += r.length() - 1;
        }
      }
    }
    return rels;
  }

  private static Rel command(String s, int i) {
    for (String[] cmd :
        new String[][] {{"\\le", "<="}, {"\\ge", ">="}, {"\\lt", "<"}, {"\\gt", ">"}}) {
      int end = i + cmd[0].length();
      if (s.startsWith(cmd[0], i) && (end >= s.length() || !Latex.isLetter(s.charAt(end)))) {
        return new Rel(i, cmd[0].length(), cmd[1].charAt(0) == '<', cmd[1].length() == 1);
      }
    }
    return null;
  }
}
