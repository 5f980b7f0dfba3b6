package dev.javelin.rewards.math;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Map;

/**
 * Numeric comparison for values with no exact form ({@link NotExact}): cube roots, logarithms,
 * trigonometric values, fine-grained powers. Only reached after exact evaluation has failed for
 * that reason, so exact rationals never get a tolerance ({@code 10000000000000001 ≠
 * 10000000000000000} stays). The tolerance is far below any rounding a model writes ({@code 1.5874}
 * is not {@code \sqrt[3]{4}}) and far above double rounding over a small expression.
 */
public final class Approx {

  /** Relative tolerance. */
  static final double RELATIVE = 1e-10;

  /** Absolute floor, for values that are zero up to rounding ({@code \sin\pi}). */
  static final double ABSOLUTE = 1e-12;

  private Approx() {}

  /**
   * Whether {@code a} and {@code b} agree numerically at {@code point}; throws {@link NotEvaluable}
   * when either is undefined there (a pole), so that the caller can try another point.
   */
  static boolean close(Expr a, Expr b, Map<String, Rational> point) {
    double x = eval(a, point);
    double y = eval(b, point);
    if (!Double.isFinite(x) || !Double.isFinite(y)) {
      throw new NotEvaluable("not finite");
    }
    return Math.abs(x - y) <= RELATIVE * Math.max(Math.abs(x), Math.abs(y)) + ABSOLUTE;
  }

  /** The value of {@code e} in double precision; NaN where it is undefined. */
  static double eval(Expr e, Map<String, Rational> vars) {
    if (e instanceof Expr.Num n) {
      return toDouble(n.value());
    } else if (e instanceof Expr.Var v) {
      Rational r = vars.get(v.name());
      return r == null ? Double.NaN : toDouble(r);
    } else if (e instanceof Expr.Pi) {
      return Math.PI;
    } else if (e instanceof Expr.Infinity) {
      return Double.NaN;
    } else if (e instanceof Expr.Neg n) {
      return -eval(n.a(), vars);
    } else if (e instanceof Expr.Add s) {
      return eval(s.a(), vars) + eval(s.b(), vars);
    } else if (e instanceof Expr.Mul m) {
      return eval(m.a(), vars) * eval(m.b(), vars);
    } else if (e instanceof Expr.Div d) {
      return eval(d.a(), vars) / eval(d.b(), vars);
    } else if (e instanceof Expr.Pow p) {
      return pow(eval(p.base(), vars), p.exp(), vars);
    } else if (e instanceof Expr.Root r) {
      return root(eval(r.a(), vars), eval(r.index(), vars));
    } else if (e instanceof Expr.Func f) {
      return func(f.name(), eval(f.arg(), vars));
    } else if (e instanceof Expr.Factorial f) {
      return factorial(eval(f.a(), vars));
    }
    return Double.NaN;
  }

  private static double toDouble(Rational r) {
    return new BigDecimal(r.num())
        .divide(new BigDecimal(r.den()), MathContext.DECIMAL64)
        .doubleValue();
  }

  /** A real power; a negative base needs an exponent p/q with q odd ({@code (-8)^{1/3} = -2}). */
  private static double pow(double base, Expr exp, Map<String, Rational> vars) {
    double x = eval(exp, vars);
    if (base >= 0) {
      return Math.pow(base, x);
    }
    Rational r;
    try {
      r = exp.eval(vars).asRational();
    } catch (NotEvaluable e) {
      return Double.NaN;
    }
    if (r == null || !r.den().testBit(0)) {
      return Double.NaN;
    }
    double m = Math.pow(-base, x);
    return r.num().testBit(0) ? -m : m;
  }

  private static double root(double x, double index) {
    if (index != Math.rint(index) || index < 1) {
      return Double.NaN;
    }
    if (x < 0) {
      return ((long) index) % 2 == 1 ? -Math.pow(-x, 1 / index) : Double.NaN;
    }
    return index == 3 ? Math.cbrt(x) : Math.pow(x, 1 / index);
  }

  private static double func(String name, double x) {
    return switch (name) {
      case "ln" -> Math.log(x);
      case "exp" -> Math.exp(x);
      case "sin" -> Math.sin(x);
      case "cos" -> Math.cos(x);
      case "tan" -> Math.tan(x);
      case "arcsin" -> Math.asin(x);
      case "arccos" -> Math.acos(x);
      case "arctan" -> Math.atan(x);
      default -> Double.NaN;
    };
  }

  private static double factorial(double n) {
    if (n != Math.rint(n) || n < 0 || n > 170) {
      return Double.NaN;
    }
    double f = 1;
    for (int k = 2; k <= n; k++) {
      f *= k;
    }
    return f;
  }
}
