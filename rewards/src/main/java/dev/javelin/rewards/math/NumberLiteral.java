package dev.javelin.rewards.math;

/**
 * Parses a plain number as written in short answers: optional sign, {@code $}, thousands commas,
 * decimals, exponent, or a fraction {@code a/b}. Returns null instead of throwing.
 */
public final class NumberLiteral {

  private NumberLiteral() {}

  /** The exact value of {@code text}, or null if it is not a plain number. */
  public static Rational parse(String text) {
    if (text == null || text.length() > Rational.MAX_DIGITS + 16) {
      return null;
    }
    StringBuilder sb = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c != ',' && c != '$' && !Character.isWhitespace(c)) {
        sb.append(c);
      }
    }
    String s = sb.toString();
    try {
      int slash = s.indexOf('/');
      if (slash >= 0) {
        Rational a = signed(s.substring(0, slash));
        Rational b = signed(s.substring(slash + 1));
        return a == null || b == null || b.signum() == 0 ? null : a.divide(b);
      }
      return signed(s);
    } catch (NotEvaluable e) {
      return null;
    }
  }

  private static Rational signed(String s) {
    boolean neg = s.startsWith("-");
    String body = neg || s.startsWith("+") ? s.substring(1) : s;
    if (body.isEmpty() || body.equals(".")) {
      return null;
    }
    if (body.endsWith(".")) {
      body = body.substring(0, body.length() - 1);
    }
    Rational r = Rational.parseDecimal(body);
    return neg ? r.negate() : r;
  }
}
