package dev.javelin.recipes.config;

import dev.javelin.grpo.RecipeKeyed;
import java.util.Collection;
import java.util.Optional;

/** "Did you mean ...?" for misspelt keys and names: the closest candidate by edit distance. */
public final class Suggestions {
  private Suggestions() {}

  /**
   * The candidate nearest to {@code wrong}, if any is reasonably near (distance ≤ max(2, len/3)).
   */
  public static Optional<String> closest(String wrong, Collection<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      int d = RecipeKeyed.editDistance(wrong, c);
      // A key that matches the last segment exactly (e.g. "lr" for
      // "actor_rollout_ref.actor.optim.lr")
      // is a better hint than a short key that is merely few edits away.
      if (c.endsWith("." + wrong)) {
        d = Math.min(d, 1);
      }
      if (d < bestDistance) {
        bestDistance = d;
        best = c;
      }
    }
    int allowed = Math.max(2, wrong.length() / 3);
    return best != null && bestDistance <= allowed ? Optional.of(best) : Optional.empty();
  }

  /** " (did you mean 'x'?)" or the empty string. */
  public static String hint(String wrong, Collection<String> candidates) {
    return closest(wrong, candidates).map(s -> " (did you mean '" + s + "'?)").orElse("");
  }
}
