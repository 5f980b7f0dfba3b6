package dev.javelin.datasets.tokenizer.template;

/**
 * A chat template that cannot be parsed or rendered: a syntax error, an unsupported Jinja construct
 * (named in the message), a type error, or the template's own {@code raise_exception(...)}.
 */
public final class TemplateException extends RuntimeException {
  public TemplateException(String message) {
    super(message);
  }

  /** A failure at source line {@code line}; 0 when no single line is to blame. */
  static TemplateException at(int line, String message) {
    return new TemplateException(
        line > 0 ? "chat template line " + line + ": " + message : "chat template: " + message);
  }
}
