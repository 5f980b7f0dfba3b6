package dev.javelin.rewards.math;

import java.math.BigInteger;

/** Splits {@code n = s²·f} with {@code f} square-free, exactly, for the sizes answers use. */
final class SquareFree {

  private static final int TRIAL_LIMIT = 1000;
  private static final BigInteger CUBE_OF_LIMIT = BigInteger.valueOf(1_000_000_000L);

  private SquareFree() {}

  /**
   * Returns {@code {s, f}}. After trial division by every prime below 1000, a cofactor under 10⁹ is
   * square-free or a prime square, so the split is exact; larger cofactors are refused.
   */
  static BigInteger[] split(BigInteger n) {
    if (n.signum() <= 0) {
      throw new NotEvaluable("sqrt of a non-positive integer");
    }
    if (n.bitLength() > 256) {
      throw new NotEvaluable("radicand too large");
    }
    BigInteger s = BigInteger.ONE;
    BigInteger f = BigInteger.ONE;
    BigInteger rest = n;
    for (int p = 2; p < TRIAL_LIMIT && rest.compareTo(BigInteger.ONE) > 0; p += p == 2 ? 1 : 2) {
      BigInteger bp = BigInteger.valueOf(p);
      int e = 0;
      while (rest.mod(bp).signum() == 0) {
        rest = rest.divide(bp);
        e++;
      }
      s = s.multiply(bp.pow(e / 2));
      if (e % 2 == 1) {
        f = f.multiply(bp);
      }
    }
    if (rest.compareTo(BigInteger.ONE) > 0) {
      BigInteger r = rest.sqrt();
      if (r.multiply(r).equals(rest)) {
        s = s.multiply(r);
      } else if (rest.compareTo(CUBE_OF_LIMIT) < 0) {
        f = f.multiply(rest);
      } else {
        throw new NotEvaluable("cannot factor radicand");
      }
    }
    return new BigInteger[] {s, f};
  }
}
