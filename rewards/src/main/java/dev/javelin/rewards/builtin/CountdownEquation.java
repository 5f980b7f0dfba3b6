package dev.javelin.rewards.builtin;

import dev.javelin.rewards.math.Expr;
import dev.javelin.rewards.math.ExprParser;
import dev.javelin.rewards.math.NotEvaluable;
import dev.javelin.rewards.math.Rational;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A countdown equation: non-negative integer literals, {@code + - * /} (also {@code × ÷}),
 * parentheses and spaces, evaluated exactly by the math answer parser ({@link ExprParser}) with its
 * grammar narrowed to what VeRL's countdown check lets Python evaluate. No eval.
 */
final class CountdownEquation {
  private static final int MAX_LENGTH = 1000;
  private static final int MAX_LITERAL_DIGITS = 12;
  private static final Pattern ALLOWED = Pattern.compile("[0-9+\\-*/\u00d7\u00f7()\\s]*");

  // The math parser reads "2(3)" as a product; Python does not, so every operator is spelled.
  private static final Pattern IMPLICIT_PRODUCT = Pattern.compile("[0-9)]\\s*\\(|\\)\\s*[0-9]");
  private static final Pattern LONG_LITERAL =
      Pattern.compile("[0-9]{" + (MAX_LITERAL_DIGITS + 1) + "}");

  /**
   * The value of an equation and the integer literals it used, in order.
   *
   * @param value exact value
   * @param literals every number literal in the equation
   */
  record Result(Rational value, List<Long> literals) {}

  private CountdownEquation() {}

  /** Evaluates {@code equation}; throws {@link NotEvaluable} on anything else. */
  static Result evaluate(String equation) {
    if (equation.length() > MAX_LENGTH) {
      throw new NotEvaluable("equation too long");
    }
    if (!ALLOWED.matcher(equation).matches()) {
      throw new NotEvaluable("only digits, + - * / and parentheses");
    }
    if (IMPLICIT_PRODUCT.matcher(equation).find()) {
      throw new NotEvaluable("a product without its operator");
    }
    if (LONG_LITERAL.matcher(equation).find()) {
      throw new NotEvaluable("a number over " + MAX_LITERAL_DIGITS + " digits");
    }
    String ascii = equation.replace('\u00d7', '*').replace('\u00f7', '/');
    Expr e = ExprParser.parse(ascii).expr();
    List<Long> literals = new ArrayList<>();
    collectLiterals(e, literals);
    Rational value = e.eval(Map.of()).asRational(); // a zero divisor throws NotEvaluable
    if (value == null) {
      throw new NotEvaluable("not a rational value");
    }
    return new Result(value, List.copyOf(literals));
  }

  /** The literals left to right; any node beyond + - * / is refused. */
  private static void collectLiterals(Expr e, List<Long> out) {
    if (e instanceof Expr.Num n && n.integerLiteral() && n.value().isInteger()) {
      out.add(n.value().num().longValueExact());
    } else if (e instanceof Expr.Neg n) {
      collectLiterals(n.a(), out);
    } else if (e instanceof Expr.Add a) {
      collectLiterals(a.a(), out);
      collectLiterals(a.b(), out);
    } else if (e instanceof Expr.Mul m) {
      collectLiterals(m.a(), out);
      collectLiterals(m.b(), out);
    } else if (e instanceof Expr.Div d) {
      collectLiterals(d.a(), out);
      collectLiterals(d.b(), out);
    } else {
      throw new NotEvaluable("not a countdown equation");
    }
  }
}
