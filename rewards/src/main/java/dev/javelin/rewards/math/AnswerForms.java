package dev.javelin.rewards.math;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Surface forms of whole answers that {@link MathEquivalence} treats before parsing: a trailing
 * integer-parameter clause ({@code , k \in \mathbb{Z}}), conditional or multi-case answers, short
 * words, and equations that name a value ({@code \frac{28}{4}=7}, {@code |r-s| = 16}).
 */
final class AnswerForms {

  /** Only the end of an answer is searched for a parameter clause, so the regex cost is bounded. */
  private static final int CLAUSE_WINDOW = 160;

  private static final Pattern INTEGER_CLAUSE =
      Pattern.compile(
          "(?:[,;]|\\\\q?quad|\\\\[,;]|\\s)*"
              + "(?:\\\\text\\{\\s*(?:for|where)(?:\\s+all|\\s+any|\\s+some)?\\s*\\}|for|where|\\\\forall)?"
              + "\\s*\\(?\\s*([a-zA-Z])\\s*\\\\in\\s*\\\\(?:mathbb|mathbf|Bbb)\\s*\\{?\\s*Z\\s*\\}?"
              + "\\s*\\)?\\s*\\.?\\s*$");

  private static final Pattern CONDITIONAL =
      Pattern.compile(
          "\\\\begin\\{cases\\}|\\\\text\\{\\s*(?:if|when|otherwise|for)\\b|\\bif\\b|\\\\(?:b|p)?mod\\b"
              + "|\\\\equiv\\b");

  private static final Pattern FUNCTION_NAME =
      Pattern.compile("\\\\(?:sin|cos|tan|log|ln|exp|arcsin|arccos|arctan)(?![a-zA-Z])");

  /** Two-letter answers that are words ({@code \text{no}} = {@code No}), not products. */
  private static final Set<String> WORDS =
      Set.of("no", "ok", "on", "in", "up", "is", "it", "as", "at", "by", "an", "or", "of", "to");

  private AnswerForms() {}

  /**
   * {@code \frac{\pi}{6}+n\pi, n\in\mathbb{Z}} becomes {@code \frac{\pi}{6}+k\pi}: the clause is
   * dropped and its parameter renamed {@code k}, so general solutions compare as functions of k.
   */
  static String withoutIntegerParameter(String raw) {
    int from = Math.max(0, raw.length() - CLAUSE_WINDOW);
    Matcher m = INTEGER_CLAUSE.matcher(raw).region(from, raw.length());
    if (!m.find()) {
      return raw;
    }
    String body = raw.substring(0, m.start());
    char v = m.group(1).charAt(0);
    return v == 'k' || standalone(body, 'k') >= 0 ? body : rename(body, v, 'k');
  }

  /** Whether {@code raw} states cases or conditions: such an answer only matches in full. */
  static boolean isConditional(String raw) {
    return CONDITIONAL.matcher(raw).find();
  }

  /** Whether a cleaned answer is a short word compared as text ({@code No}, {@code \text{on}}). */
  static boolean isWord(String cleaned) {
    String w = MathEquivalence.textKey(cleaned, true);
    return WORDS.contains(w);
  }

  /**
   * The right side of an equation that names a value, or null: the left side is a constant ({@code
   * \frac{28}{4}=7}), a function value ({@code \sin\theta = ...}) or not an expression ({@code
   * |r-s| = 16}, {@code (b,c)=(6,5)}), and the right side has no variables. A true equation ({@code
   * 2x - y + 3 = 0}) names nothing.
   */
  static String namedValue(String cleaned) {
    List<String> sides = Latex.splitTopLevel(cleaned, "=");
    if (sides == null || sides.size() < 2 || cleaned.length() > ExprParser.MAX_LENGTH) {
      return null;
    }
    String lhs = sides.get(0).strip();
    String rhs = sides.get(sides.size() - 1).strip();
    if (sides.size() > 2) {
      return rhs; // in a chain a = b = c every side is equal: the last one is the value
    }
    if (lhs.isEmpty() || !constant(AnswerParser.parse(rhs))) {
      return null;
    }
    if (!FUNCTION_NAME.matcher(lhs).find()) {
      try {
        TreeSet<String> vars = new TreeSet<>();
        ExprParser.parse(lhs).expr().collectVars(vars);
        if (!vars.isEmpty()) {
          return null;
        }
      } catch (NotEvaluable e) {
        // not an expression: |r-s|, (b, c)
      }
    }
    return rhs;
  }

  private static boolean constant(Answer a) {
    if (a instanceof Answer.Single s) {
      TreeSet<String> vars = new TreeSet<>();
      s.expr().collectVars(vars);
      return vars.isEmpty();
    }
    if (a instanceof Answer.Bracketed b) {
      return b.items().stream().allMatch(AnswerForms::constant);
    }
    if (a instanceof Answer.Unordered u) {
      return u.items().stream().allMatch(AnswerForms::constant);
    }
    return false;
  }

  /** Index of {@code c} standing alone (not inside a word or a command), or -1. */
  private static int standalone(String s, char c) {
    for (int i = s.indexOf(c); i >= 0; i = s.indexOf(c, i + 1)) {
      if (alone(s, i)) {
        return i;
      }
    }
    return -1;
  }

  private static boolean alone(String s, int i) {
    char prev = i > 0 ? s.charAt(i - 1) : ' ';
    char next = i + 1 < s.length() ? s.charAt(i + 1) : ' ';
    return !Latex.isLetter(prev) && prev != '\\' && !Latex.isLetter(next);
  }

  private static String rename(String s, char from, char to) {
    StringBuilder sb = new StringBuilder(s);
    for (int i = 0; i < sb.length(); i++) {
      if (sb.charAt(i) == from && alone(s, i)) {
        sb.setCharAt(i, to);
      }
    }
    return sb.toString();
  }
}
