package dev.javelin.datasets.tokenizer.template;

import java.util.List;

/** Statement AST of the Jinja subset: what a template body is a list of. */
sealed interface Node {
  record Text(String text) implements Node {}

  /** {@code {{ expr }}}. */
  record Output(Expr expr) implements Node {}

  /** {@code if/elif/else}: the first branch whose test is truthy runs, else {@code otherwise}. */
  record If(List<Branch> branches, List<Node> otherwise) implements Node {}

  record Branch(Expr test, List<Node> body) {}

  /**
   * {@code for a[, b] in iterable [if filter]} with {@code loop.*}; {@code otherwise} runs when
   * nothing was iterated. Assignments inside the body stay inside it, as in Jinja.
   */
  record For(
      List<String> targets, Expr iterable, Expr filter, List<Node> body, List<Node> otherwise)
      implements Node {}

  /** {@code set name = value}. */
  record Set(String name, Expr value) implements Node {}

  /** {@code set ns.attr = value} on a {@code namespace()}. */
  record SetAttr(String name, String attr, Expr value, int line) implements Node {}
}
