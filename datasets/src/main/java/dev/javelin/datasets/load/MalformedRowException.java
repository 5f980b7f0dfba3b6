package dev.javelin.datasets.load;

/**
 * One row cannot become an {@link dev.javelin.datasets.Example}; the loader counts and skips it.
 */
final class MalformedRowException extends Exception {
  MalformedRowException(String reason) {
    super(reason, null, false, false); // no stack trace: this is an expected, counted outcome
  }
}
