package dev.javelin.datasets;

import java.util.List;
import java.util.Objects;

/**
 * What a loader read.
 *
 * @param examples the rows that converted, in file order
 * @param skipped how many malformed rows were skipped (exact)
 * @param errors one message per skipped row naming its 1-based row number, capped at {@link
 *     #MAX_ERRORS} messages so that a broken file cannot flood memory
 */
public record LoadResult(List<Example> examples, int skipped, List<String> errors) {

  /** The most error messages kept; {@link #skipped()} keeps counting past it. */
  public static final int MAX_ERRORS = 100;

  public LoadResult {
    examples = List.copyOf(Objects.requireNonNull(examples, "examples"));
    errors = List.copyOf(Objects.requireNonNull(errors, "errors"));
    if (skipped < errors.size()) {
      throw new IllegalArgumentException(
          "skipped (" + skipped + ") must be >= errors (" + errors.size() + ")");
    }
  }

  /** One line for logs: {@code 1319 examples, 0 skipped}. */
  public String summary() {
    return examples.size() + " examples, " + skipped + " skipped";
  }
}
