package dev.javelin.rewards.builtin;

/**
 * Hand-written versions of VeRL's GSM8K extraction regexes ({@code "#### (\-?[0-9\.\,]+)"} and
 * {@code "(\-?[0-9\.\,]+)"}), linear-time by construction.
 */
final class Gsm8kScan {

  private Gsm8kScan() {}

  /** The number after the last {@code "#### "} marker, commas and {@code $} removed; or null. */
  static String strict(String s) {
    String found = null;
    int i = s.indexOf("#### ");
    while (i >= 0) {
      int end = tokenEnd(s, i + 5);
      if (end > i + 5) {
        found = s.substring(i + 5, end);
        i = s.indexOf("#### ", end);
      } else {
        i = s.indexOf("#### ", i + 1);
      }
    }
    return found == null ? null : clean(found);
  }

  /**
   * The last number-like token that contains a digit, commas and {@code $} removed; or null. (VeRL
   * also accepts a lone "," here, which can never match a ground truth.)
   */
  static String flexible(String s) {
    String found = null;
    int i = 0;
    while (i < s.length()) {
      int end = tokenEnd(s, i);
      if (end > i) {
        String tok = s.substring(i, end);
        if (hasDigit(tok)) {
          found = tok;
        }
        i = end;
      } else {
        i++;
      }
    }
    return found == null ? null : clean(found);
  }

  /** End of the token {@code -?[0-9.,]+} starting at {@code i}, or {@code i} if none. */
  private static int tokenEnd(String s, int i) {
    int j = i < s.length() && s.charAt(i) == '-' ? i + 1 : i;
    int k = j;
    while (k < s.length() && isNumChar(s.charAt(k))) {
      k++;
    }
    return k > j ? k : i;
  }

  private static boolean isNumChar(char c) {
    return (c >= '0' && c <= '9') || c == '.' || c == ',';
  }

  private static boolean hasDigit(String t) {
    for (int i = 0; i < t.length(); i++) {
      if (t.charAt(i) >= '0' && t.charAt(i) <= '9') {
        return true;
      }
    }
    return false;
  }

  static String clean(String tok) {
    return tok.replace(",", "").replace("$", "");
  }
}
