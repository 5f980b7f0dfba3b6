package dev.javelin.rewards.math;

import java.util.List;

/** The structure of a final answer, as {@link AnswerParser} reads it. */
public sealed interface Answer {

  /** The cleaned text this node was parsed from. */
  String source();

  /** One value, e.g. {@code \frac{3}{4}}, {@code 2\sqrt{3}}, {@code 50\%}. */
  record Single(String source, Expr expr, boolean percent) implements Answer {}

  /** An equation whose left side is not a bare variable, e.g. {@code x^2 + y^2 = 1}. */
  record Equation(String source, Expr lhs, Expr rhs) implements Answer {}

  /** An ordered tuple or interval: brackets matter, order matters. */
  record Bracketed(String source, char open, char close, List<Answer> items) implements Answer {
    /** Freezes the items. */
    public Bracketed {
      items = List.copyOf(items);
    }
  }

  /** An unordered collection: {@code \{1, 2\}}, a bare list {@code 1, -2}, or a union. */
  record Unordered(String source, List<Answer> items) implements Answer {
    /** Freezes the items. */
    public Unordered {
      items = List.copyOf(items);
    }
  }

  /** Anything not understood as mathematics; compared as normalised text. */
  record Text(String source) implements Answer {}
}
