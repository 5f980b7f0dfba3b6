package dev.javelin.rewards.math;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Decides whether a predicted answer equals a reference answer. String forms are tried first
 * (VeRL's normalisation, then {@link LatexCleaner}); then both sides are parsed ({@link
 * AnswerParser}) and compared structurally with exact arithmetic ({@link Scalar}). Expressions with
 * variables are compared at several fixed rational points, exactly: two different rational
 * functions agree on all of them only by (vanishingly rare) coincidence.
 */
public final class MathEquivalence {

  private static final int POINTS = 3;

  /** Longer answers are only compared verbatim: no real answer is this long. */
  public static final int MAX_ANSWER_CHARS = 10_000;

  private MathEquivalence() {}

  /** Whether {@code pred} and {@code gold} denote the same answer. */
  public static boolean equivalent(String pred, String gold) {
    if (pred == null || gold == null) {
      return false;
    }
    if (pred.strip().equals(gold.strip())) {
      return true;
    }
    if (pred.length() > MAX_ANSWER_CHARS || gold.length() > MAX_ANSWER_CHARS) {
      return false;
    }
    // VeRL's normalisation cuts at "\text{ ", which would make "a \text{ if } ..." equal "a".
    boolean conditional = AnswerForms.isConditional(pred) || AnswerForms.isConditional(gold);
    if (!conditional && VerlNormalizer.strip(pred).equals(VerlNormalizer.strip(gold))) {
      return true;
    }
    String p = LatexCleaner.clean(AnswerForms.withoutIntegerParameter(pred));
    String g = LatexCleaner.clean(AnswerForms.withoutIntegerParameter(gold));
    if (p.isEmpty() || g.isEmpty()) {
      return false;
    }
    if (textKey(p, false).equals(textKey(g, false))) {
      return true;
    }
    if (conditional) {
      return false; // a conditional or multi-case answer matches only in full
    }
    if (AnswerForms.isWord(p) || AnswerForms.isWord(g)) {
      return textKey(p, true).equals(textKey(g, true));
    }
    Answer a = AnswerParser.parse(p);
    Answer b = AnswerParser.parse(g);
    return same(a, b) || equationForms(a, g, b) || equationForms(b, p, a);
  }

  /**
   * An equation {@code a} against a non-equation {@code other}: as equations when {@code other} is
   * a named one ({@code 2x - y + 3 = 0} vs {@code y = 2x + 3}), or by the value the equation names
   * ({@code \frac{28}{4}=7} vs {@code 7}).
   */
  private static boolean equationForms(Answer a, String other, Answer b) {
    if (b instanceof Answer.Equation || !a.source().contains("=")) {
      return false;
    }
    if (a instanceof Answer.Equation x) {
      Answer.Equation y = AnswerParser.equation(other);
      if (y != null && equations(x, y)) {
        return true;
      }
    }
    List<String> otherSides = Latex.splitTopLevel(other, "=");
    if (otherSides != null && otherSides.size() > 1) {
      return false;
    }
    String value = AnswerForms.namedValue(a.source());
    return value != null
        && (textKey(value, false).equals(textKey(other, false))
            || same(AnswerParser.parse(value), b));
  }

  /** Structural equality of two parsed answers. */
  static boolean same(Answer a, Answer b) {
    if (a instanceof Answer.Single x && b instanceof Answer.Single y) {
      return singles(x, y);
    }
    if (a instanceof Answer.Bracketed x && b instanceof Answer.Bracketed y) {
      return x.open() == y.open() && x.close() == y.close() && inOrder(x.items(), y.items());
    }
    if (a instanceof Answer.Unordered x && b instanceof Answer.Unordered y) {
      return matching(x.items(), y.items());
    }
    // A tuple against a bare list: "(1, 2, 3)" vs "1,2,3", in order.
    if (a instanceof Answer.Bracketed x && x.open() == '(' && b instanceof Answer.Unordered y) {
      return !y.source().startsWith("\\{") && inOrder(x.items(), y.items());
    }
    if (b instanceof Answer.Bracketed && a instanceof Answer.Unordered) {
      return same(b, a);
    }
    if (a instanceof Answer.Equation x && b instanceof Answer.Equation y) {
      return equations(x, y);
    }
    return (a instanceof Answer.Text || b instanceof Answer.Text)
        && textKey(a.source(), true).equals(textKey(b.source(), true));
  }

  private static boolean singles(Answer.Single x, Answer.Single y) {
    if (x.percent() == y.percent()) {
      return values(x.expr(), y.expr());
    }
    // "50%" vs "0.5" or "50": accept either reading of the percent sign.
    Expr hundred = new Expr.Num(Rational.of(100), true);
    Expr xs = x.percent() ? new Expr.Div(x.expr(), hundred) : x.expr();
    Expr ys = y.percent() ? new Expr.Div(y.expr(), hundred) : y.expr();
    return values(x.expr(), y.expr()) || values(xs, ys);
  }

  private static boolean inOrder(List<Answer> a, List<Answer> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!same(a.get(i), b.get(i))) {
        return false;
      }
    }
    return true;
  }

  /** Multiset equality; greedy matching is exact because equivalence is transitive. */
  private static boolean matching(List<Answer> a, List<Answer> b) {
    if (a.size() != b.size()) {
      return false;
    }
    List<Answer> left = new ArrayList<>(b);
    for (Answer x : a) {
      int hit = -1;
      for (int j = 0; j < left.size() && hit < 0; j++) {
        if (same(x, left.get(j))) {
          hit = j;
        }
      }
      if (hit < 0) {
        return false;
      }
      left.remove(hit);
    }
    return true;
  }

  /** Exact value equality, sampling variables at fixed rational points. */
  static boolean values(Expr a, Expr b) {
    int ia = infinitySign(a);
    int ib = infinitySign(b);
    if (ia != 0 || ib != 0) {
      return ia == ib;
    }
    TreeSet<String> vars = new TreeSet<>();
    a.collectVars(vars);
    b.collectVars(vars);
    try {
      if (vars.isEmpty()) {
        return sameAt(a, b, Map.of());
      }
      int agreed = 0;
      for (int t = 0; t < 4 * POINTS && agreed < POINTS; t++) {
        boolean same;
        try {
          same = sameAt(a, b, point(vars, t));
        } catch (NotEvaluable e) {
          continue; // e.g. a pole at this point: try the next one
        }
        if (!same) {
          return false;
        }
        agreed++;
      }
      return agreed == POINTS;
    } catch (NotEvaluable | ArithmeticException e) {
      return false;
    }
  }

  /** Exact equality at a point, numeric ({@link Approx}) where a side has no exact form. */
  private static boolean sameAt(Expr a, Expr b, Map<String, Rational> point) {
    try {
      return a.eval(point).equals(b.eval(point));
    } catch (NotExact e) {
      return Approx.close(a, b, point);
    }
  }

  /** {@code lhs1 − rhs1} and {@code lhs2 − rhs2} must be proportional (same solution set). */
  private static boolean equations(Answer.Equation x, Answer.Equation y) {
    Expr dx = new Expr.Add(x.lhs(), new Expr.Neg(x.rhs()));
    Expr dy = new Expr.Add(y.lhs(), new Expr.Neg(y.rhs()));
    TreeSet<String> vars = new TreeSet<>();
    dx.collectVars(vars);
    dy.collectVars(vars);
    if (vars.isEmpty()) {
      return false;
    }
    try {
      Scalar ratio = null;
      for (int t = 0; t < POINTS; t++) {
        Map<String, Rational> point = point(vars, t);
        Scalar a = dx.eval(point);
        Scalar b = dy.eval(point);
        if (a.terms().isEmpty() != b.terms().isEmpty()) {
          return false;
        }
        if (!a.terms().isEmpty()) {
          Scalar r = a.divide(b);
          if (ratio != null && !ratio.equals(r)) {
            return false;
          }
          ratio = r;
        }
      }
      return ratio != null;
    } catch (NotEvaluable | ArithmeticException e) {
      return false;
    }
  }

  private static Map<String, Rational> point(Set<String> vars, int t) {
    Map<String, Rational> m = new TreeMap<>();
    int k = 0;
    for (String v : vars) {
      // Distinct non-integer rationals per variable and per trial, with varied signs so that
      // some point keeps square roots real (e.g. b² − 4ac > 0).
      long sign = (t + k) % 3 == 2 ? -1 : 1;
      m.put(v, Rational.of(sign * (13L + 7L * k + 31L * t), 5L + 2L * k + 3L * t));
      k++;
    }
    return m;
  }

  private static int infinitySign(Expr e) {
    if (e instanceof Expr.Infinity) {
      return 1;
    }
    if (e instanceof Expr.Neg n) {
      return -infinitySign(n.a());
    }
    return 0;
  }

  /** Space- and brace-insensitive text form, optionally case-insensitive. */
  static String textKey(String s, boolean ignoreCase) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!Character.isWhitespace(c) && c != '{' && c != '}') {
        sb.append(c);
      }
    }
    String k = ignoreCase ? sb.toString().toLowerCase(Locale.ROOT) : sb.toString();
    if (k.length() == 3 && k.charAt(0) == '(' && k.charAt(2) == ')') {
      k = k.substring(1, 2); // multiple-choice "(C)" vs "C"
    }
    return k;
  }
}
