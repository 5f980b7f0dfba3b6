package dev.javelin.rewards.builtin;

import dev.javelin.rewards.math.NotEvaluable;
import dev.javelin.rewards.math.Rational;
import java.util.ArrayList;
import java.util.List;

/**
 * A safe evaluator for countdown equations: non-negative integer literals, {@code + - * /} (also
 * {@code × ÷}), parentheses and spaces, evaluated exactly over rationals. It records every literal
 * it reads. No eval, bounded length and depth.
 */
final class ArithmeticParser {

  private static final int MAX_LENGTH = 1000;
  private static final int MAX_DEPTH = 64;

  /**
   * The value of an equation and the integer literals it used, in order.
   *
   * @param value exact value
   * @param literals every number literal in the equation
   */
  record Result(Rational value, List<Long> literals) {}

  private final String s;
  private int pos;
  private int depth;
  private final List<Long> literals = new ArrayList<>();

  private ArithmeticParser(String s) {
    this.s = s;
  }

  /** Evaluates {@code equation}; throws {@link NotEvaluable} on anything else. */
  static Result evaluate(String equation) {
    if (equation.length() > MAX_LENGTH) {
      throw new NotEvaluable("equation too long");
    }
    ArithmeticParser p = new ArithmeticParser(equation);
    Rational v = p.expr();
    p.skipWs();
    if (p.pos != p.s.length()) {
      throw new NotEvaluable("unexpected character at " + p.pos);
    }
    return new Result(v, List.copyOf(p.literals));
  }

  private Rational expr() {
    if (++depth > MAX_DEPTH) {
      throw new NotEvaluable("nesting too deep");
    }
    Rational v = term();
    while (true) {
      skipWs();
      if (eat('+')) {
        v = v.add(term());
      } else if (eat('-')) {
        v = v.subtract(term());
      } else {
        depth--;
        return v;
      }
    }
  }

  private Rational term() {
    Rational v = factor();
    while (true) {
      skipWs();
      if (eat('*') || eat('\u00d7')) {
        v = v.multiply(factor());
      } else if (eat('/') || eat('\u00f7')) {
        v = v.divide(factor()); // a zero divisor throws NotEvaluable
      } else {
        return v;
      }
    }
  }

  private Rational factor() {
    skipWs();
    if (eat('-')) {
      return factor().negate();
    }
    if (eat('(')) {
      Rational v = expr();
      skipWs();
      if (!eat(')')) {
        throw new NotEvaluable("missing ')'");
      }
      return v;
    }
    int start = pos;
    while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') {
      pos++;
    }
    if (pos == start || pos - start > 12) {
      throw new NotEvaluable("expected a number at " + start);
    }
    long n = Long.parseLong(s.substring(start, pos));
    literals.add(n);
    return Rational.of(n);
  }

  private boolean eat(char c) {
    if (pos < s.length() && s.charAt(pos) == c) {
      pos++;
      return true;
    }
    return false;
  }

  private void skipWs() {
    while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
      pos++;
    }
  }
}
