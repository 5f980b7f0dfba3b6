package dev.javelin.recipes.task;

import dev.javelin.datasets.Example;
import java.util.Objects;

/**
 * An example with its prompt rendered and tokenized once, up front.
 *
 * @param example the dataset row (data source, ground truth, extra info)
 * @param promptText the rendered prompt, for reward functions that read it
 * @param promptIds the prompt's token ids, (P)
 */
// The ids are shared read-only with every request of the prompt; copies would add up per step.
@SuppressWarnings("ArrayRecordComponent")
public record PromptedExample(Example example, String promptText, int[] promptIds) {
  /** Validates. */
  public PromptedExample {
    Objects.requireNonNull(example, "example");
    Objects.requireNonNull(promptText, "promptText");
    if (promptIds == null || promptIds.length == 0) {
      throw new IllegalArgumentException("example " + example.uid() + " has an empty prompt");
    }
  }
}
