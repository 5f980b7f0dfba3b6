package dev.javelin.rewards.math;

import java.math.BigInteger;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * An exact real number of the form {@code Σ c·√r·π^p}: rational coefficients {@code c} over a basis
 * of square-free radicands {@code r} and integer powers {@code p} of π. Square roots of distinct
 * square-free integers are linearly independent over ℚ and π is transcendental, so two values are
 * equal iff their term maps are equal: equality is exact, with no floating-point tolerance.
 *
 * @param terms basis → non-zero coefficient (read-only)
 */
public record Scalar(Map<Basis, Rational> terms) {

  /** One basis element {@code √radicand · π^piPower}. */
  public record Basis(BigInteger radicand, int piPower) {}

  private static final int MAX_TERMS = 32;
  private static final Basis UNIT = new Basis(BigInteger.ONE, 0);

  /** Drops zero terms and freezes the map. */
  public Scalar {
    Map<Basis, Rational> m = new HashMap<>();
    terms.forEach(
        (b, c) -> {
          if (c.signum() != 0) {
            m.put(b, c);
          }
        });
    if (m.size() > MAX_TERMS || Math.abs(maxPi(m)) > 64) {
      throw new NotEvaluable("expression too large");
    }
    terms = Collections.unmodifiableMap(m);
  }

  private static int maxPi(Map<Basis, Rational> m) {
    int max = 0;
    for (Basis b : m.keySet()) {
      max = Math.max(max, Math.abs(b.piPower()));
    }
    return max;
  }

  /** A rational value. */
  public static Scalar of(Rational r) {
    return new Scalar(Map.of(UNIT, r));
  }

  /** π. */
  public static Scalar pi() {
    return new Scalar(Map.of(new Basis(BigInteger.ONE, 1), Rational.ONE));
  }

  /** The value as a rational, or null if it has a surd or π part. */
  public Rational asRational() {
    if (terms.isEmpty()) {
      return Rational.ZERO;
    }
    return terms.size() == 1 ? terms.get(UNIT) : null;
  }

  public Scalar add(Scalar o) {
    Map<Basis, Rational> m = new HashMap<>(terms);
    o.terms.forEach((b, c) -> m.merge(b, c, Rational::add));
    return new Scalar(m);
  }

  public Scalar negate() {
    Map<Basis, Rational> m = new HashMap<>();
    terms.forEach((b, c) -> m.put(b, c.negate()));
    return new Scalar(m);
  }

  public Scalar subtract(Scalar o) {
    return add(o.negate());
  }

  public Scalar multiply(Scalar o) {
    Map<Basis, Rational> m = new HashMap<>();
    for (Map.Entry<Basis, Rational> a : terms.entrySet()) {
      for (Map.Entry<Basis, Rational> b : o.terms.entrySet()) {
        // √r1·√r2 = g·√(r1·r2/g²) with g = gcd(r1, r2); the result stays square-free.
        BigInteger r1 = a.getKey().radicand();
        BigInteger r2 = b.getKey().radicand();
        BigInteger g = r1.gcd(r2);
        BigInteger rad = r1.divide(g).multiply(r2.divide(g));
        Rational c = a.getValue().multiply(b.getValue()).multiply(new Rational(g, BigInteger.ONE));
        Basis basis = new Basis(rad, a.getKey().piPower() + b.getKey().piPower());
        m.merge(basis, c, Rational::add);
      }
    }
    return new Scalar(m);
  }

  /** {@code 1/this} for a monomial or a two-term sum sharing one power of π (by conjugate). */
  public Scalar inverse() {
    if (terms.isEmpty()) {
      throw new NotEvaluable("division by zero");
    }
    if (terms.size() == 1) {
      Map.Entry<Basis, Rational> t = terms.entrySet().iterator().next();
      BigInteger r = t.getKey().radicand();
      // 1/(c·√r·π^p) = √r·π^-p / (c·r)
      Rational c = Rational.ONE.divide(t.getValue().multiply(new Rational(r, BigInteger.ONE)));
      return new Scalar(Map.of(new Basis(r, -t.getKey().piPower()), c));
    }
    if (terms.size() == 2) {
      var it = terms.entrySet().iterator();
      var a = it.next();
      var b = it.next();
      int p = a.getKey().piPower();
      if (b.getKey().piPower() == p) {
        // (a√r1 + b√r2)(a√r1 − b√r2) = a²r1 − b²r2, a rational.
        Scalar conj =
            new Scalar(Map.of(a.getKey(), a.getValue(), b.getKey(), b.getValue().negate()));
        Rational norm = multiply(conj).asRational();
        if (norm != null) {
          return conj.multiply(of(Rational.ONE.divide(norm)));
        }
      }
    }
    throw new NotExact("cannot rationalize denominator");
  }

  public Scalar divide(Scalar o) {
    return multiply(o.inverse());
  }

  /** {@code this^n} by repeated squaring. */
  public Scalar pow(int n) {
    Rational r = asRational();
    if (r != null) {
      return of(r.pow(n));
    }
    if (Math.abs(n) > 64) {
      throw new NotEvaluable("power too large");
    }
    Scalar base = n < 0 ? inverse() : this;
    Scalar result = of(Rational.ONE);
    for (int k = Math.abs(n); k > 0; k >>= 1) {
      if ((k & 1) == 1) {
        result = result.multiply(base);
      }
      if (k > 1) {
        base = base.multiply(base);
      }
    }
    return result;
  }

  /** The principal square root, for a non-negative rational times an even power of π. */
  public Scalar sqrt() {
    if (terms.isEmpty()) {
      return this;
    }
    if (terms.size() != 1) {
      throw new NotExact("sqrt of a sum");
    }
    Map.Entry<Basis, Rational> t = terms.entrySet().iterator().next();
    if (!t.getKey().radicand().equals(BigInteger.ONE) || t.getKey().piPower() % 2 != 0) {
      throw new NotExact("nested radical");
    }
    Rational c = t.getValue();
    if (c.signum() < 0) {
      throw new NotEvaluable("sqrt of a negative number");
    }
    // √(n/d) = √(n·d)/d, then pull the square part out of n·d.
    BigInteger[] split = SquareFree.split(c.num().multiply(c.den()));
    Rational coeff = new Rational(split[0], c.den());
    return new Scalar(Map.of(new Basis(split[1], t.getKey().piPower() / 2), coeff));
  }
}
