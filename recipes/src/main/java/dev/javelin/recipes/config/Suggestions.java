package dev.javelin.recipes.config;

import dev.javelin.grpo.RecipeKeyed;
import java.util.Collection;
import java.util.Optional;

/** "Did you mean ...?" for misspelt keys and names: the closest candidate by edit distance. */
public final class Suggestions {
  private Suggestions() {}

  /**
   * The candidate nearest to {@code wrong}, if any is near enough to help. The allowance is
   * measured on the last dotted segment ({@code max(2, len/3)}), not on the whole key: a long
   * section prefix shared with every candidate would otherwise let {@code actor.use_torch_compile}
   * "suggest" {@code actor.use_kl_loss}, and a far suggestion is worse than none. A candidate that
   * ends with {@code wrong}, or has the same last segment under another section, counts as one edit
   * away.
   */
  public static Optional<String> closest(String wrong, Collection<String> candidates) {
    String tail = lastSegment(wrong);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      int d = RecipeKeyed.editDistance(wrong, c);
      // "lr" for "actor_rollout_ref.actor.optim.lr", or a key under the wrong section
      if (c.endsWith("." + wrong) || (wrong.contains(".") && lastSegment(c).equals(tail))) {
        d = Math.min(d, 1);
      }
      if (d < bestDistance) {
        bestDistance = d;
        best = c;
      }
    }
    int allowed = Math.max(2, tail.length() / 3);
    return best != null && bestDistance <= allowed ? Optional.of(best) : Optional.empty();
  }

  private static String lastSegment(String key) {
    return key.substring(key.lastIndexOf('.') + 1);
  }

  /** " (did you mean 'x'?)" or the empty string. */
  public static String hint(String wrong, Collection<String> candidates) {
    return closest(wrong, candidates).map(s -> " (did you mean '" + s + "'?)").orElse("");
  }
}
