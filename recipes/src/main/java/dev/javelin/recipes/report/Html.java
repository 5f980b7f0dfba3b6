package dev.javelin.recipes.report;

/** HTML/SVG text escaping: every string from a run (metric names, recipe values, model output). */
final class Html {
  private Html() {}

  static String escape(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> sb.append("&lt;");
        case '>' -> sb.append("&gt;");
        case '&' -> sb.append("&amp;");
        case '"' -> sb.append("&quot;");
        case '\'' -> sb.append("&#39;");
        default -> sb.append(c < 0x20 && c != '\n' && c != '\t' ? ' ' : c);
      }
    }
    return sb.toString();
  }
}
