package dev.javelin.datasets.tokenizer.template;

import java.util.List;

/** A piece of template source after lexing: literal text, an output tag or a statement tag. */
sealed interface Segment {
  int line();

  /** Literal text, whitespace control already applied. */
  record Text(String text, int line) implements Segment {}

  /** {@code {{ expr }}}; tokens end with an END token. */
  record Output(List<Token> tokens, int line) implements Segment {}

  /** {@code {% stmt %}}; tokens end with an END token. */
  record Statement(List<Token> tokens, int line) implements Segment {}
}
