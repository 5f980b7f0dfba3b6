package dev.javelin.datasets.synthetic;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * Shape of the arithmetic task: {@code terms} operands, each uniform in {@code [0, 10^digits - 1]},
 * joined by operators drawn uniformly from {@code operators}.
 *
 * @param digits most digits per operand, 1 to 18
 * @param operators the operators to draw from (non-empty, no repeats)
 * @param terms number of operands, 2 to 8
 */
public record ArithmeticConfig(int digits, List<ArithOperator> operators, int terms) {
  public ArithmeticConfig {
    if (digits < 1 || digits > 18) {
      throw new IllegalArgumentException("arithmetic: digits must be in [1, 18], got " + digits);
    }
    if (terms < 2 || terms > 8) {
      throw new IllegalArgumentException("arithmetic: terms must be in [2, 8], got " + terms);
    }
    Objects.requireNonNull(operators, "arithmetic: operators");
    operators = List.copyOf(operators);
    if (operators.isEmpty() || new HashSet<>(operators).size() != operators.size()) {
      throw new IllegalArgumentException(
          "arithmetic: operators must be non-empty without repeats, got " + operators);
    }
  }

  /** {@code a+b=} with a, b in [0, 999]: the acceptance setup for tiny models. */
  public static ArithmeticConfig threeDigitAddition() {
    return new ArithmeticConfig(3, List.of(ArithOperator.PLUS), 2);
  }

  /** Exclusive upper bound of an operand: {@code 10^digits}. */
  long operandBound() {
    long bound = 1;
    for (int i = 0; i < digits; i++) {
      bound *= 10;
    }
    return bound;
  }
}
