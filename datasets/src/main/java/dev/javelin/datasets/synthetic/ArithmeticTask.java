package dev.javelin.datasets.synthetic;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Arithmetic expressions such as {@code 123+456=}; data source {@code synthetic/arith}.
 *
 * <p>The question is the expression followed by {@code =}; the ground truth is the exact decimal
 * value with the usual precedence ({@code *} before {@code +} and {@code -}), possibly negative.
 * {@code extraInfo} holds {@code expression} (without {@code =}).
 */
public record ArithmeticTask(ArithmeticConfig config) implements SyntheticTask {

  public ArithmeticTask {
    Objects.requireNonNull(config, "config");
  }

  @Override
  public String dataSource() {
    return "synthetic/arith";
  }

  @Override
  public Problem draw(SplittableRandom rng) {
    long bound = config.operandBound();
    List<ArithOperator> operators = config.operators();
    long[] operands = new long[config.terms()]; // (terms)
    ArithOperator[] between = new ArithOperator[config.terms() - 1]; // (terms - 1)
    StringBuilder expression = new StringBuilder();
    for (int i = 0; i < operands.length; i++) {
      if (i > 0) {
        between[i - 1] = operators.get(rng.nextInt(operators.size()));
        expression.append(between[i - 1].symbol());
      }
      operands[i] = rng.nextLong(bound);
      expression.append(operands[i]);
    }
    String text = expression.toString();
    return new Problem(
        text, text + "=", evaluate(operands, between).toString(), Map.of("expression", text));
  }

  /**
   * The value of {@code operands[0] op[0] operands[1] ...} with {@code *} binding tighter than
   * {@code +} and {@code -}: a sum of signed products.
   */
  static BigInteger evaluate(long[] operands, ArithOperator[] operators) {
    if (operators.length != operands.length - 1) {
      throw new IllegalArgumentException("need one operator between each pair of operands");
    }
    List<BigInteger> signedProducts = new ArrayList<>();
    BigInteger product = BigInteger.valueOf(operands[0]);
    for (int i = 0; i < operators.length; i++) {
      BigInteger next = BigInteger.valueOf(operands[i + 1]);
      switch (operators[i]) {
        case TIMES -> product = product.multiply(next);
        case PLUS -> {
          signedProducts.add(product);
          product = next;
        }
        case MINUS -> {
          signedProducts.add(product);
          product = next.negate();
        }
      }
    }
    signedProducts.add(product);
    return signedProducts.stream().reduce(BigInteger.ZERO, BigInteger::add);
  }
}
