package dev.javelin.datasets.synthetic;

/**
 * An exact rational {@code num/den} in lowest terms with {@code den > 0}, for the countdown solver.
 * Arithmetic throws {@link ArithmeticException} on long overflow, which the solver treats as a dead
 * branch.
 */
record Fraction(long num, long den) {
  Fraction {
    if (den == 0) {
      throw new ArithmeticException("zero denominator");
    }
    if (den < 0) {
      num = Math.negateExact(num);
      den = Math.negateExact(den);
    }
    long gcd = gcd(Math.abs(num), den);
    if (gcd > 1) {
      num /= gcd;
      den /= gcd;
    }
  }

  static Fraction of(long value) {
    return new Fraction(value, 1);
  }

  boolean isZero() {
    return num == 0;
  }

  boolean equalsInteger(long value) {
    return den == 1 && num == value;
  }

  Fraction plus(Fraction other) {
    return new Fraction(
        Math.addExact(Math.multiplyExact(num, other.den), Math.multiplyExact(other.num, den)),
        Math.multiplyExact(den, other.den));
  }

  Fraction minus(Fraction other) {
    return plus(new Fraction(Math.negateExact(other.num), other.den));
  }

  Fraction times(Fraction other) {
    return new Fraction(Math.multiplyExact(num, other.num), Math.multiplyExact(den, other.den));
  }

  Fraction dividedBy(Fraction other) {
    return new Fraction(Math.multiplyExact(num, other.den), Math.multiplyExact(den, other.num));
  }

  private static long gcd(long a, long b) {
    while (b != 0) {
      long t = a % b;
      a = b;
      b = t;
    }
    return a == 0 ? 1 : a;
  }
}
