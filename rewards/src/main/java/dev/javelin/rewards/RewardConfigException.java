package dev.javelin.rewards;

import java.util.Optional;

/**
 * A reward configuration problem found before training starts (unknown function, unknown data
 * source, bad keyword argument). The message says what to do; when the problem lies in one field of
 * the {@link RewardSpec}, {@link #field()} names it, so that a caller can name that field in its
 * own terms (a recipe names its key).
 */
public final class RewardConfigException extends RuntimeException {
  /** The field of a {@link RewardSpec} a problem lies in. */
  public enum Field {
    PATH("path"),
    CLASS_NAME("className"),
    NAME("name"),
    KWARGS("kwargs");

    private final String javaName;

    Field(String javaName) {
      this.javaName = javaName;
    }

    /** The record component's name. */
    public String javaName() {
      return javaName;
    }
  }

  /** Null when the problem is not one field's (a reward worker that cannot start). */
  private final Field field;

  private final String detail;

  /** Creates the exception with a message naming the fix. */
  public RewardConfigException(String message) {
    this(null, message, null);
  }

  /** Creates the exception with a cause (e.g. a failing constructor). */
  public RewardConfigException(String message, Throwable cause) {
    this(null, message, cause);
  }

  /** A problem in {@code field}; the message is {@code "<field>: <detail>"}. */
  public RewardConfigException(Field field, String detail) {
    this(field, detail, null);
  }

  /** A problem in {@code field}, with its cause. */
  public RewardConfigException(Field field, String detail, Throwable cause) {
    super(field == null ? detail : field.javaName() + ": " + detail, cause);
    this.field = field;
    this.detail = detail;
  }

  /** The field the problem lies in, if it is one field's. */
  public Optional<Field> field() {
    return Optional.ofNullable(field);
  }

  /** The message without the field's name. */
  public String detail() {
    return detail;
  }
}
