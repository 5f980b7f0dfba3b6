package dev.javelin.recipes.metrics;

import java.util.Locale;

/** Writing JSON string literals for the run's JSON-lines files (metrics.jsonl, batches.jsonl). */
public final class JsonText {
  private JsonText() {}

  /** Appends {@code s} as a JSON string literal: quotes, backslashes and control chars escaped. */
  public static void quote(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20) {
        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    sb.append('"');
  }
}
