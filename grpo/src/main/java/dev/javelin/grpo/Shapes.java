package dev.javelin.grpo;

/** Argument checks shared by the batch records; messages name the offending field. */
public final class Shapes {
  private Shapes() {}

  /** Checks {@code rows, cols >= 1}. */
  public static void checkDims(int rows, int cols) {
    if (rows < 1) {
      throw new IllegalArgumentException("rows must be >= 1, got " + rows);
    }
    if (cols < 1) {
      throw new IllegalArgumentException("cols must be >= 1, got " + cols);
    }
  }

  /** Checks that a required (B*T) array is present and has {@code rows*cols} entries. */
  public static void checkRequired(String field, double[] values, int rows, int cols) {
    if (values == null) {
      throw new IllegalArgumentException(field + " must not be null");
    }
    checkOptional(field, values, rows, cols);
  }

  /** Checks an optional (B*T) array: null is fine, otherwise it must have {@code rows*cols}. */
  public static void checkOptional(String field, double[] values, int rows, int cols) {
    if (values != null && values.length != rows * cols) {
      throw new IllegalArgumentException(
          field
              + " has "
              + values.length
              + " entries but rows*cols = "
              + rows
              + "*"
              + cols
              + " = "
              + rows * cols);
    }
  }

  /** Checks the (B*T) response mask. */
  public static void checkMask(boolean[] mask, int rows, int cols) {
    if (mask == null) {
      throw new IllegalArgumentException("mask must not be null");
    }
    if (mask.length != rows * cols) {
      throw new IllegalArgumentException(
          "mask has " + mask.length + " entries but rows*cols = " + rows * cols);
    }
  }

  /** Number of valid tokens in row {@code r}. */
  public static int rowLength(boolean[] mask, int cols, int r) {
    int n = 0;
    for (int t = r * cols, end = t + cols; t < end; t++) {
      if (mask[t]) {
        n++;
      }
    }
    return n;
  }
}
