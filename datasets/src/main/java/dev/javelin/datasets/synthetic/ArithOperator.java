package dev.javelin.datasets.synthetic;

/** A binary operator of the arithmetic task, with its written symbol. */
public enum ArithOperator {
  PLUS('+'),
  MINUS('-'),
  TIMES('*');

  private final char symbol;

  ArithOperator(char symbol) {
    this.symbol = symbol;
  }

  /** The character written in the prompt. */
  public char symbol() {
    return symbol;
  }
}
