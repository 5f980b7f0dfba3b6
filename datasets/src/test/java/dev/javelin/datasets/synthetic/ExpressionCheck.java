package dev.javelin.datasets.synthetic;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Independent test-side evaluator of fully parenthesised solver output such as {@code ((3+5)*2)}.
 */
final class ExpressionCheck {
  private static final Pattern NON_DIGITS = Pattern.compile("[^0-9]+");
  private final String text;
  private int pos;

  private ExpressionCheck(String text) {
    this.text = text;
  }

  static Fraction evaluate(String expression) {
    ExpressionCheck parser = new ExpressionCheck(expression);
    Fraction value = parser.term();
    if (parser.pos != expression.length()) {
      throw new IllegalArgumentException("trailing input in " + expression);
    }
    return value;
  }

  static List<Long> numbersIn(String expression) {
    List<Long> numbers = new ArrayList<>();
    for (String part : NON_DIGITS.split(expression, -1)) {
      if (!part.isEmpty()) {
        numbers.add(Long.parseLong(part));
      }
    }
    numbers.sort(null);
    return numbers;
  }

  private Fraction term() {
    if (text.charAt(pos) != '(') {
      int start = pos;
      while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
        pos++;
      }
      return Fraction.of(Long.parseLong(text.substring(start, pos)));
    }
    pos++; // (
    Fraction left = term();
    char op = text.charAt(pos++);
    Fraction right = term();
    pos++; // )
    return switch (op) {
      case '+' -> left.plus(right);
      case '-' -> left.minus(right);
      case '*' -> left.times(right);
      case '/' -> left.dividedBy(right);
      default -> throw new IllegalArgumentException("operator " + op);
    };
  }
}
