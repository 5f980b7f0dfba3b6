package dev.javelin.datasets.tokenizer.template;

/**
 * One token inside a {@code {{ }}} or {@code {% %}} tag.
 *
 * @param kind what it is
 * @param text its text; for {@link Kind#STRING} the unescaped value
 * @param line 1-based line in the template, for error messages
 */
record Token(Kind kind, String text, int line) {
  enum Kind {
    NAME,
    STRING,
    INT,
    FLOAT,
    OP,
    END
  }

  boolean is(Kind k, String t) {
    return kind == k && text.equals(t);
  }

  boolean isOp(String t) {
    return is(Kind.OP, t);
  }

  boolean isName(String t) {
    return is(Kind.NAME, t);
  }
}
