package dev.javelin.recipes.driver;

import dev.javelin.recipes.task.PromptedExample;
import dev.javelin.sampler.Rollout;
import java.util.List;

/**
 * A step's prompts with their rollouts: {@code n} per prompt, in prompt order, so rollout i
 * answered prompt i / n. VeRL keeps the same pairing by repeating each prompt row n times ({@code
 * DataProto.repeat(n, interleave=True)}); here the prompts are held once and every stage that needs
 * a rollout's prompt, a prompt's group or a per-prompt value spread over its group asks this batch
 * instead of re-expanding by index.
 *
 * @param prompts the prompts, (B)
 * @param rollouts their responses, (B·n), grouped by prompt
 * @param n rollouts per prompt
 */
record RolloutGroups(List<PromptedExample> prompts, List<Rollout> rollouts, int n) {
  RolloutGroups {
    prompts = List.copyOf(prompts);
    rollouts = List.copyOf(rollouts);
    if (n < 1 || rollouts.size() != (long) prompts.size() * n) {
      throw new IllegalArgumentException(
          rollouts.size()
              + " rollouts do not make groups of n = "
              + n
              + " for "
              + prompts.size()
              + " prompts");
    }
  }

  /** Number of rollouts, B·n. */
  int size() {
    return rollouts.size();
  }

  /** The prompt rollout {@code i} answered. */
  PromptedExample promptOf(int i) {
    return prompts.get(i / n);
  }

  /** Prompt {@code p}'s n entries of a per-rollout list (its rollouts, their rewards, ...). */
  <T> List<T> groupOf(List<T> perRollout, int p) {
    return perRollout.subList(p * n, (p + 1) * n);
  }

  /** Each prompt's value repeated over its n rollouts: (B) → (B·n). */
  double[] perRollout(double[] perPrompt) {
    if (perPrompt.length != prompts.size()) {
      throw new IllegalArgumentException(
          perPrompt.length + " values for " + prompts.size() + " prompts");
    }
    double[] out = new double[size()]; // (B·n)
    for (int i = 0; i < out.length; i++) {
      out[i] = perPrompt[i / n];
    }
    return out;
  }
}
