package dev.javelin.datasets.tokenizer.template;

import java.util.List;
import java.util.Map;

/** Expression AST of the Jinja subset. Each node carries its source line for error messages. */
sealed interface Expr {
  int line();

  /** A string, number, boolean or none ({@code null}) literal. */
  record Literal(Object value, int line) implements Expr {}

  record Name(String name, int line) implements Expr {}

  /** {@code target.name}. */
  record Attr(Expr target, String name, int line) implements Expr {}

  /** {@code target[key]}. */
  record Item(Expr target, Expr key, int line) implements Expr {}

  /** {@code target[start:stop:step]}; absent parts are null. */
  record Slice(Expr target, Expr start, Expr stop, Expr step, int line) implements Expr {}

  /** {@code callee(args, name=kwarg)}. */
  record Call(Expr callee, List<Expr> args, Map<String, Expr> kwargs, int line) implements Expr {}

  /** {@code value | name(args)}. */
  record Filter(Expr value, String name, List<Expr> args, Map<String, Expr> kwargs, int line)
      implements Expr {}

  /** {@code value is [not] name(args)}. */
  record Test(Expr value, String name, List<Expr> args, boolean negated, int line)
      implements Expr {}

  /** Binary operators, {@code and}/{@code or} short-circuit; {@code not in} is its own op. */
  record Binary(String op, Expr left, Expr right, int line) implements Expr {}

  /** {@code not x}, {@code -x}, {@code +x}. */
  record Unary(String op, Expr operand, int line) implements Expr {}

  /** {@code then if test else otherwise}; {@code otherwise} may be null (undefined). */
  record Conditional(Expr test, Expr then, Expr otherwise, int line) implements Expr {}

  /** {@code [a, b]} and {@code (a, b)}. */
  record ListLiteral(List<Expr> items, int line) implements Expr {}

  /** {@code {k: v}}. */
  record DictLiteral(List<Expr> keys, List<Expr> values, int line) implements Expr {}
}
