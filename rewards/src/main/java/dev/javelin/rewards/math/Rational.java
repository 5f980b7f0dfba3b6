package dev.javelin.rewards.math;

import java.math.BigInteger;

/**
 * An exact rational number {@code num/den} in lowest terms with {@code den > 0}. Sizes are capped
 * ({@link #MAX_BITS}) so that hostile inputs cannot make arithmetic explode.
 *
 * @param num numerator
 * @param den denominator, positive
 */
public record Rational(BigInteger num, BigInteger den) {

  /** Largest numerator or denominator, in bits (about 2,400 decimal digits). */
  public static final int MAX_BITS = 8192;

  /** Longest decimal literal accepted by {@link #parseDecimal}. */
  public static final int MAX_DIGITS = 1000;

  public static final Rational ZERO = new Rational(BigInteger.ZERO, BigInteger.ONE);
  public static final Rational ONE = new Rational(BigInteger.ONE, BigInteger.ONE);

  /** Reduces to lowest terms; throws {@link NotEvaluable} on a zero denominator or over-size. */
  public Rational {
    if (den.signum() == 0) {
      throw new NotEvaluable("division by zero");
    }
    if (den.signum() < 0) {
      num = num.negate();
      den = den.negate();
    }
    BigInteger g = num.gcd(den);
    if (!g.equals(BigInteger.ONE) && g.signum() != 0) {
      num = num.divide(g);
      den = den.divide(g);
    }
    if (num.signum() == 0) {
      den = BigInteger.ONE;
    }
    if (num.bitLength() > MAX_BITS || den.bitLength() > MAX_BITS) {
      throw new NotEvaluable("number too large");
    }
  }

  /** An integer. */
  public static Rational of(long n) {
    return new Rational(BigInteger.valueOf(n), BigInteger.ONE);
  }

  /** {@code n/d}. */
  public static Rational of(long n, long d) {
    return new Rational(BigInteger.valueOf(n), BigInteger.valueOf(d));
  }

  /**
   * Parses an unsigned decimal literal: digits, an optional fraction, an optional exponent ({@code
   * 1.5e-3}). Throws {@link NotEvaluable} for anything else or more than {@link #MAX_DIGITS}
   * digits.
   */
  public static Rational parseDecimal(String s) {
    int e = Math.max(s.indexOf('e'), s.indexOf('E'));
    String mant = e < 0 ? s : s.substring(0, e);
    int exp = 0;
    if (e >= 0) {
      String es = s.substring(e + 1);
      if (es.isEmpty() || es.length() > 6 || !es.matches("[+-]?[0-9]+")) {
        throw new NotEvaluable("bad exponent");
      }
      exp = Integer.parseInt(es.startsWith("+") ? es.substring(1) : es);
    }
    int dot = mant.indexOf('.');
    String intPart = dot < 0 ? mant : mant.substring(0, dot);
    String frac = dot < 0 ? "" : mant.substring(dot + 1);
    String digits = intPart + frac;
    if (digits.isEmpty() || digits.length() > MAX_DIGITS || !allDigits(digits)) {
      throw new NotEvaluable("bad number");
    }
    int scale = frac.length() - exp;
    if (Math.abs(scale) > MAX_DIGITS) {
      throw new NotEvaluable("exponent too large");
    }
    BigInteger n = new BigInteger(digits);
    BigInteger ten = BigInteger.TEN.pow(Math.abs(scale));
    return scale >= 0 ? new Rational(n, ten) : new Rational(n.multiply(ten), BigInteger.ONE);
  }

  private static boolean allDigits(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  public Rational add(Rational o) {
    return new Rational(num.multiply(o.den).add(o.num.multiply(den)), den.multiply(o.den));
  }

  public Rational subtract(Rational o) {
    return add(o.negate());
  }

  public Rational multiply(Rational o) {
    return new Rational(num.multiply(o.num), den.multiply(o.den));
  }

  public Rational divide(Rational o) {
    return new Rational(num.multiply(o.den), den.multiply(o.num));
  }

  public Rational negate() {
    return new Rational(num.negate(), den);
  }

  /** {@code this^n}; the result size is checked before computing. */
  public Rational pow(int n) {
    long bits = (long) Math.max(num.bitLength(), den.bitLength()) * Math.abs((long) n);
    if (bits > MAX_BITS) {
      throw new NotEvaluable("power too large");
    }
    Rational r = new Rational(num.pow(Math.abs(n)), den.pow(Math.abs(n)));
    return n >= 0 ? r : ONE.divide(r);
  }

  /** The exact {@code k}-th root when it is rational; throws {@link NotEvaluable} otherwise. */
  public Rational root(int k) {
    if (k < 1 || k > 64) {
      throw new NotEvaluable("root index");
    }
    if (num.signum() < 0 && k % 2 == 0) {
      throw new NotEvaluable("even root of a negative number");
    }
    BigInteger n = exactRoot(num.abs(), k);
    BigInteger d = exactRoot(den, k);
    if (n == null || d == null) {
      throw new NotExact("irrational root");
    }
    return new Rational(num.signum() < 0 ? n.negate() : n, d);
  }

  private static BigInteger exactRoot(BigInteger x, int k) {
    if (k == 2) {
      BigInteger r = x.sqrt();
      return r.multiply(r).equals(x) ? r : null;
    }
    // Newton-free: binary search on bit length bounds is enough for the small sizes allowed here.
    BigInteger lo = BigInteger.ZERO;
    BigInteger hi = BigInteger.ONE.shiftLeft(x.bitLength() / k + 1);
    while (lo.compareTo(hi) <= 0) {
      BigInteger mid = lo.add(hi).shiftRight(1);
      int c = mid.pow(k).compareTo(x);
      if (c == 0) {
        return mid;
      }
      if (c < 0) {
        lo = mid.add(BigInteger.ONE);
      } else {
        hi = mid.subtract(BigInteger.ONE);
      }
    }
    return null;
  }

  public int signum() {
    return num.signum();
  }

  public boolean isInteger() {
    return den.equals(BigInteger.ONE);
  }

  @Override
  public String toString() {
    return isInteger() ? num.toString() : num + "/" + den;
  }
}
