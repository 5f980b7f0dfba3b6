package dev.javelin.rewards.math;

/**
 * Reads one number literal for {@link ExprParser}: digits with an optional fraction and exponent
 * ({@code 1.5e-3}), a repeating block ({@code 0.1\overline{6}}), or space-separated thousands
 * groups ({@code 1 000 000}).
 */
final class NumberLexer {

  /**
   * A literal's exact value.
   *
   * @param value the number
   * @param integerLiteral whether it was a plain digit run (for mixed numbers like 2\frac12)
   * @param end index just past the literal
   */
  record Lexed(Rational value, boolean integerLiteral, int end) {}

  private final String s;
  private int pos;

  private NumberLexer(String s, int pos) {
    this.s = s;
    this.pos = pos;
  }

  /** Reads the literal starting at {@code pos} (a digit, or a dot before a digit). */
  static Lexed read(String s, int pos) {
    NumberLexer lx = new NumberLexer(s, pos);
    Expr.Num n = lx.number();
    return new Lexed(n.value(), n.integerLiteral(), lx.pos);
  }

  private Expr.Num number() {
    int start = pos;
    while (pos < s.length() && (isDigit(s.charAt(pos)) || s.charAt(pos) == '.')) {
      pos++;
    }
    if (pos - start <= 3 && spaceGroupFollows()) {
      return spaceGrouped(start);
    }
    boolean integer = s.indexOf('.', start) < 0 || s.indexOf('.', start) >= pos;
    if (pos + 1 < s.length() && (s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
      int q = pos + 1;
      if (s.charAt(q) == '+' || s.charAt(q) == '-') {
        q++;
      }
      if (q < s.length() && isDigit(s.charAt(q))) {
        pos = q;
        while (pos < s.length() && isDigit(s.charAt(pos))) {
          pos++;
        }
        integer = false;
      }
    }
    String literal = s.substring(start, pos);
    if (literal.indexOf('.') < 0 || !s.startsWith("\\overline{", pos)) {
      return new Expr.Num(Rational.parseDecimal(literal), integer);
    }
    return new Expr.Num(repeating(literal), false);
  }

  /** {@code a.b\overline{r}} = (abr − ab) / (10^|b| · (10^|r| − 1)). */
  private Rational repeating(String literal) {
    int close = s.indexOf('}', pos);
    String rep = close < 0 ? "" : s.substring(pos + "\\overline{".length(), close).strip();
    if (rep.isEmpty() || rep.length() > 50 || !rep.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
      throw new NotEvaluable("bad repeating decimal");
    }
    pos = close + 1;
    String digits = literal.replace(".", "");
    int fracLen = literal.length() - literal.indexOf('.') - 1;
    Rational withRep = Rational.parseDecimal(digits + rep);
    Rational without = Rational.parseDecimal(digits.isEmpty() ? "0" : digits);
    Rational scale =
        Rational.of(10)
            .pow(fracLen)
            .multiply(Rational.of(10).pow(rep.length()).subtract(Rational.ONE));
    return withRep.subtract(without).divide(scale);
  }

  /** Whether " ddd" (a space and exactly three digits) follows: "1 000 000" is one number. */
  private boolean spaceGroupFollows() {
    int p = pos;
    return p + 4 <= s.length()
        && s.charAt(p) == ' '
        && isDigit(s.charAt(p + 1))
        && isDigit(s.charAt(p + 2))
        && isDigit(s.charAt(p + 3))
        && (p + 4 == s.length() || (!isDigit(s.charAt(p + 4)) && s.charAt(p + 4) != '.'));
  }

  private Expr.Num spaceGrouped(int start) {
    StringBuilder digits = new StringBuilder(s.substring(start, pos));
    if (digits.indexOf(".") >= 0) {
      throw new NotEvaluable("grouped decimal");
    }
    while (spaceGroupFollows()) {
      digits.append(s, pos + 1, pos + 4);
      pos += 4;
    }
    return new Expr.Num(Rational.parseDecimal(digits.toString()), true);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
