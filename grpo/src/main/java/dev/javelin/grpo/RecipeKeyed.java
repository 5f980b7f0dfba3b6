package dev.javelin.grpo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A variant selectable from a recipe by one or more string keys (VeRL's spelling first, then
 * aliases). Enums implement it and {@link #lookup} resolves a recipe string to the constant.
 */
public interface RecipeKeyed {

  /** The recipe keys that select this variant; the first is the canonical one. */
  List<String> keys();

  /** The canonical recipe key. */
  default String key() {
    return keys().get(0);
  }

  /**
   * Resolves {@code key} among the constants of {@code type}.
   *
   * @param what where the key was given (a field name, or a caller's own name for it), for the
   *     error message
   * @throws IllegalArgumentException naming the valid keys and the closest match
   */
  static <E extends Enum<E> & RecipeKeyed> E lookup(Class<E> type, String key, String what) {
    if (key == null) {
      throw new IllegalArgumentException(what + " must not be null; valid: " + allKeys(type));
    }
    for (E constant : type.getEnumConstants()) {
      if (constant.keys().contains(key)) {
        return constant;
      }
    }
    throw new IllegalArgumentException(
        "unknown "
            + what
            + " '"
            + key
            + "'; valid: "
            + allKeys(type)
            + "; did you mean '"
            + closest(key, allKeys(type))
            + "'?");
  }

  /** Every key of every constant, in declaration order. */
  static <E extends Enum<E> & RecipeKeyed> List<String> allKeys(Class<E> type) {
    List<String> keys = new ArrayList<>();
    for (E constant : type.getEnumConstants()) {
      keys.addAll(constant.keys());
    }
    return keys;
  }

  private static String closest(String key, List<String> candidates) {
    String lower = key.toLowerCase(Locale.ROOT);
    String best = candidates.get(0);
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int d = editDistance(lower, candidate);
      if (d < bestDistance) {
        bestDistance = d;
        best = candidate;
      }
    }
    return best;
  }

  /**
   * Levenshtein distance; tiny inputs, so the O(n·m) table is fine. The one edit distance behind
   * every "did you mean" in recipes.
   */
  static int editDistance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
