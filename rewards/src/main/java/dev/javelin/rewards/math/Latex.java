package dev.javelin.rewards.math;

/** Small linear-time scanners over LaTeX strings shared by the cleaner and the extractors. */
public final class Latex {

  private Latex() {}

  /**
   * Index of the brace closing the one at {@code open}, skipping escaped braces (backslash-brace);
   * -1 when unbalanced. Iterative, so 100k nested braces cost one pass and no stack.
   */
  public static int matchBrace(String s, int open) {
    return matchBrace(s, open, Integer.MAX_VALUE);
  }

  /** Like {@link #matchBrace(String, int)} but gives up (-1) after {@code maxSpan} characters. */
  public static int matchBrace(String s, int open, int maxSpan) {
    int depth = 0;
    int end = (int) Math.min(s.length(), (long) open + maxSpan);
    for (int i = open; i < end; i++) {
      char c = s.charAt(i);
      if (c == '\\') {
        i++; // skip the escaped character
      } else if (c == '{') {
        depth++;
      } else if (c == '}' && --depth == 0) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Index of the bracket closing the one at {@code open}, where ( [ { and ) ] } all count, so
   * half-open intervals like {@code [1, 2)} match; -1 when unbalanced.
   */
  public static int matchAnyBracket(String s, int open) {
    int depth = 0;
    for (int i = open; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '(' || c == '[' || c == '{') {
        depth++;
      } else if ((c == ')' || c == ']' || c == '}') && --depth == 0) {
        return i;
      } else if (c == '\\' && i + 1 < s.length() && !isLetter(s.charAt(i + 1))) {
        i++; // \{ \} \, are not brackets
      }
    }
    return -1;
  }

  /** Replaces every {@code \cmd{X}} by {@code X} for the given command names. */
  public static String unwrap(String s, String... commands) {
    String out = s;
    for (String cmd : commands) {
      out = unwrapOne(out, "\\" + cmd);
    }
    return out;
  }

  private static String unwrapOne(String s, String prefix) {
    int i = s.indexOf(prefix);
    if (i < 0) {
      return s;
    }
    StringBuilder sb = new StringBuilder(s.length());
    int from = 0;
    while (i >= 0) {
      int j = i + prefix.length();
      while (j < s.length() && s.charAt(j) == ' ') {
        j++;
      }
      int end = j < s.length() && s.charAt(j) == '{' ? matchBrace(s, j) : -1;
      boolean letterAfter =
          i + prefix.length() < s.length() && isLetter(s.charAt(i + prefix.length()));
      if (end < 0 || letterAfter) {
        sb.append(s, from, i + prefix.length());
        from = i + prefix.length();
      } else {
        sb.append(s, from, i).append(s, j + 1, end);
        from = end + 1;
      }
      i = s.indexOf(prefix, from);
    }
    return sb.append(s, from, s.length()).toString();
  }

  private static final int TAIL_WINDOW = 1 << 16;

  /**
   * {@code s.lastIndexOf(needle, from)}, fast on multi-megabyte responses: the last 64k characters
   * before {@code from} are searched backwards (where answers are), and only on a miss is the rest
   * scanned forwards with the JDK's vectorised {@link String#indexOf(String, int)}.
   */
  public static int lastIndexOf(String s, String needle, int from) {
    int start = Math.min(from, s.length() - needle.length());
    if (start < 0) {
      return -1;
    }
    int windowEnd = Math.max(0, start - TAIL_WINDOW);
    char first = needle.charAt(0);
    for (int i = start; i >= windowEnd; i--) {
      if (s.charAt(i) == first && s.startsWith(needle, i)) {
        return i;
      }
    }
    int found = -1;
    for (int i = s.indexOf(needle); i >= 0 && i < windowEnd; i = s.indexOf(needle, i + 1)) {
      found = i;
    }
    return found;
  }

  /** Whether {@code c} is an ASCII letter. */
  public static boolean isLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  /**
   * Splits at top-level occurrences of {@code sep} (outside any brackets). Returns null when a
   * bracket is unbalanced.
   */
  public static java.util.List<String> splitTopLevel(String s, String sep) {
    java.util.List<String> parts = new java.util.ArrayList<>();
    int depth = 0;
    int from = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length() && (s.charAt(i + 1) == '{' || s.charAt(i + 1) == '}')) {
        depth += s.charAt(i + 1) == '{' ? 1 : -1;
        i++;
      } else if (c == '(' || c == '[' || c == '{') {
        depth++;
      } else if (c == ')' || c == ']' || c == '}') {
        depth--;
      } else if (depth == 0 && s.startsWith(sep, i)) {
        parts.add(s.substring(from, i));
        from = i + sep.length();
        i = from - 1;
      }
      if (depth < 0) {
        return null;
      }
    }
    parts.add(s.substring(from));
    return parts;
  }
}
