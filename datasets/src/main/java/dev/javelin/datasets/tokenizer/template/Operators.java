package dev.javelin.datasets.tokenizer.template;

/**
 * Binary and unary operators: short-circuit {@code and}/{@code or}, comparisons, {@code in}, {@code
 * ~}.
 */
final class Operators {
  private Operators() {}

  static Object binary(Expr.Binary b, Interpreter in) {
    String op = b.op();
    Object left = in.eval(b.left());
    if (op.equals("and")) { // Python returns the deciding operand, not a bool
      return PyValues.truthy(left) ? in.eval(b.right()) : left;
    }
    if (op.equals("or")) {
      return PyValues.truthy(left) ? left : in.eval(b.right());
    }
    Object right = in.eval(b.right());
    return switch (op) {
      case "==" -> PyValues.eq(left, right);
      case "!=" -> !PyValues.eq(left, right);
      case "<" -> PyValues.compare(left, right, b.line()) < 0;
      case "<=" -> PyValues.compare(left, right, b.line()) <= 0;
      case ">" -> PyValues.compare(left, right, b.line()) > 0;
      case ">=" -> PyValues.compare(left, right, b.line()) >= 0;
      case "in" -> PyValues.contains(right, left, b.line());
      case "not in" -> !PyValues.contains(right, left, b.line());
      case "~" -> PyValues.str(left) + PyValues.str(right);
      default -> {
        requireDefined(left, op, b.line());
        requireDefined(right, op, b.line());
        yield PyValues.arithmetic(op, left, right, b.line());
      }
    };
  }

  static Object unary(Expr.Unary u, Object value) {
    return switch (u.op()) {
      case "not" -> !PyValues.truthy(value);
      case "-" -> {
        requireDefined(value, "-", u.line());
        yield PyValues.arithmetic("-", 0L, value, u.line());
      }
      default -> {
        requireDefined(value, "+", u.line());
        yield PyValues.arithmetic("+", 0L, value, u.line());
      }
    };
  }

  private static void requireDefined(Object v, String op, int line) {
    if (v instanceof Undefined u) {
      throw TemplateException.at(line, "'" + u.name() + "' is undefined (operand of " + op + ")");
    }
  }
}
