package dev.javelin.datasets;

/**
 * Size bounds applied while loading, so that a bad file costs a counted error rather than memory.
 *
 * @param maxRows read at most this many data rows of the file
 * @param maxPromptChars a row whose rendered prompt has more characters is skipped and counted
 * @param maxRowChars a JSONL line or a parquet cell longer than this is skipped and counted
 */
public record LoadLimits(int maxRows, int maxPromptChars, int maxRowChars) {

  /** No row cap; 32 Ki prompt characters; 1 Mi characters per row. */
  public static final LoadLimits DEFAULT = new LoadLimits(Integer.MAX_VALUE, 32 * 1024, 1 << 20);

  public LoadLimits {
    requirePositive(maxRows, "maxRows");
    requirePositive(maxPromptChars, "maxPromptChars");
    requirePositive(maxRowChars, "maxRowChars");
  }

  /** These limits with another row cap. */
  public LoadLimits withMaxRows(int rows) {
    return new LoadLimits(rows, maxPromptChars, maxRowChars);
  }

  private static void requirePositive(int value, String field) {
    if (value <= 0) {
      throw new IllegalArgumentException("load limits: " + field + " must be > 0, got " + value);
    }
  }
}
