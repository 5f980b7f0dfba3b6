package dev.javelin.rewards;

import java.util.List;
import java.util.Locale;

/** The nearest of some class names to a misspelt one, for "did you mean" hints. */
final class ClassNames {
  private ClassNames() {}

  /**
   * The candidate nearest to {@code asked} by edit distance (simple names compared too, so a
   * missing package still finds its class), or null when none is within a third of its length.
   */
  static String nearest(String asked, List<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      int d = Math.min(distance(asked, c), distance(simple(asked), simple(c)));
      if (d < bestDistance) {
        best = c;
        bestDistance = d;
      }
    }
    return best != null && bestDistance <= Math.max(2, simple(asked).length() / 3) ? best : null;
  }

  private static String simple(String name) {
    return name.substring(name.lastIndexOf('.') + 1);
  }

  /** Levenshtein distance, case-insensitive. */
  static int distance(String a, String b) {
    String x = a.toLowerCase(Locale.ROOT);
    String y = b.toLowerCase(Locale.ROOT);
    int[] prev = new int[y.length() + 1];
    int[] cur = new int[y.length() + 1];
    for (int j = 0; j <= y.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= x.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= y.length(); j++) {
        int sub = prev[j - 1] + (x.charAt(i - 1) == y.charAt(j - 1) ? 0 : 1);
        cur[j] = Math.min(sub, Math.min(prev[j], cur[j - 1]) + 1);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[y.length()];
  }
}
