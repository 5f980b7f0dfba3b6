package dev.javelin.rewards.math;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A parsed arithmetic expression: the small tree {@link ExprParser} builds from LaTeX and {@link
 * #eval} evaluates exactly.
 */
public sealed interface Expr {

  /** Evaluates with the given variable values; throws {@link NotEvaluable} when it cannot. */
  Scalar eval(Map<String, Rational> vars);

  /** The direct subexpressions; none for a leaf. */
  default List<Expr> operands() {
    return List.of();
  }

  /** Adds this tree's variable names to {@code out}: those of its operands, unless overridden. */
  default void collectVars(Set<String> out) {
    for (Expr operand : operands()) {
      operand.collectVars(out);
    }
  }

  /** A number literal; {@code integerLiteral} marks a plain digit run (for mixed numbers). */
  record Num(Rational value, boolean integerLiteral) implements Expr {
    @Override
    public Scalar eval(Map<String, Rational> vars) {
      return Scalar.of(value);
    }
  }

  /** A variable, e.g. {@code x}, {@code a_1}, {@code \theta}. */
  record Var(String name) implements Expr {
    @Override
    public Scalar eval(Map<String, Rational> vars) {
      Rational v = vars.get(name);
      if (v == null) {
        throw new NotEvaluable("unbound variable " + name);
      }
      return Scalar.of(v);
    }

    @Override
    public void collectVars(Set<String> out) {
      out.add(name);
    }
  }

  /** π. */
  record Pi() implements Expr {
    @Override
    public Scalar eval(Map<String, Rational> vars) {
      return Scalar.pi();
    }
  }

  /** ∞; only meaningful as an interval end, so it does not evaluate. */
  record Infinity() implements Expr {
    @Override
    public Scalar eval(Map<String, Rational> vars) {
      throw new NotEvaluable("infinity");
    }
  }

  /** {@code -a}. */
  record Neg(Expr a) implements Expr {
    @Override
    public Scalar eval(Map<String, Rational> vars) {
      return a.eval(vars).negate();
    }

    @Override
    public List<Expr> operands() {
      return List.of(a);
    }
  }

  /** A node of two operands. */
  sealed interface Binary extends Expr {
    /** The left operand. */
    Expr a();

    /** The right operand. */
    Expr b();

    @Override
    default List<Expr> operands() {
      return List.of(a(), b());
    }
  }

  /** {@code a + b}. */
  record Add(Expr a, Expr b) implements Binary {
    @Override
    public Scalar eval(Map<String, Rational> vars) {
      return a.eval(vars).add(b.eval(vars));
    }
  }

  /** {@code a · b}. */
  record Mul(Expr a, Expr b) implements Binary {
    @Override
    public Scalar eval(Map<String, Rational> vars) {
      return a.eval(vars).multiply(b.eval(vars));
    }
  }

  /** {@code a / b}. */
  record Div(Expr a, Expr b) implements Binary {
    @Override
    public Scalar eval(Map<String, Rational> vars) {
      return a.eval(vars).divide(b.eval(vars));
    }
  }

  /** {@code base^exp}; the exponent must evaluate to a rational with a small denominator. */
  record Pow(Expr base, Expr exp) implements Expr {
    @Override
    public Scalar eval(Map<String, Rational> vars) {
      Rational e = exp.eval(vars).asRational();
      if (e == null || e.den().bitLength() > 6) {
        throw new NotExact("irrational or fine-grained exponent"); // 2^{\sqrt2}, 10^{1/100}
      }
      if (e.num().bitLength() > 16) {
        throw new NotEvaluable("unsupported exponent");
      }
      Scalar b = base.eval(vars);
      int p = e.num().intValueExact();
      int q = e.den().intValueExact();
      return q == 1 ? b.pow(p) : Root.root(b, q).pow(p);
    }

    @Override
    public List<Expr> operands() {
      return List.of(base, exp);
    }
  }

  /** {@code \sqrt[index]{a}}. */
  record Root(Expr a, Expr index) implements Expr {
    @Override
    public Scalar eval(Map<String, Rational> vars) {
      Rational k = index.eval(vars).asRational();
      if (k == null || !k.isInteger() || k.signum() <= 0 || k.num().bitLength() > 6) {
        throw new NotEvaluable("unsupported root index");
      }
      return root(a.eval(vars), k.num().intValueExact());
    }

    static Scalar root(Scalar x, int k) {
      if (k == 1) {
        return x;
      }
      if (k == 2) {
        return x.sqrt();
      }
      Rational r = x.asRational();
      if (r == null) {
        throw new NotExact("root of an irrational");
      }
      return Scalar.of(r.root(k));
    }

    @Override
    public List<Expr> operands() {
      return List.of(a, index);
    }
  }

  /**
   * A function of one argument: {@code ln} (also {@code \log} without a base), {@code exp} and the
   * trigonometric functions. Exact only at the few points where the value is rational ({@code \ln
   * 1}, {@code \sin 0}); elsewhere {@link NotExact} hands the comparison to {@link Approx}.
   */
  record Func(String name, Expr arg) implements Expr {
    @Override
    public Scalar eval(Map<String, Rational> vars) {
      Rational r = arg.eval(vars).asRational();
      if (r != null && r.signum() == 0 && !name.equals("ln")) {
        return Scalar.of(name.equals("cos") || name.equals("exp") ? Rational.ONE : Rational.ZERO);
      }
      if (r != null && name.equals("ln") && r.equals(Rational.ONE)) {
        return Scalar.of(Rational.ZERO);
      }
      throw new NotExact(name);
    }

    @Override
    public List<Expr> operands() {
      return List.of(arg);
    }
  }

  /** {@code n!} for an integer {@code 0 <= n <= 500}. */
  record Factorial(Expr a) implements Expr {
    /** Largest argument evaluated; 500! has about 3,800 bits. */
    static final int MAX_N = 500;

    @Override
    public Scalar eval(Map<String, Rational> vars) {
      Rational r = a.eval(vars).asRational();
      if (r == null || !r.isInteger() || r.signum() < 0 || r.num().bitLength() > 9) {
        throw new NotEvaluable("factorial of a non-integer or large value");
      }
      int n = r.num().intValueExact();
      if (n > MAX_N) {
        throw new NotEvaluable("factorial too large");
      }
      java.math.BigInteger f = java.math.BigInteger.ONE;
      for (int k = 2; k <= n; k++) {
        f = f.multiply(java.math.BigInteger.valueOf(k));
      }
      return Scalar.of(new Rational(f, java.math.BigInteger.ONE));
    }

    @Override
    public List<Expr> operands() {
      return List.of(a);
    }
  }
}
