package dev.javelin.recipes.task;

import dev.javelin.datasets.Tokenizer;
import java.util.List;
import java.util.Objects;

/**
 * A recipe's prompts, tokenized: the training set, the validation set and the tokenizer that made
 * them.
 *
 * @param train training prompts (may be empty when only evaluating)
 * @param val validation prompts (may be empty)
 * @param tokenizer the policy's tokenizer
 * @param stopTokenIds ids that end a response (the tokenizer's eos)
 */
// stopTokenIds is a tiny constant array read by every request; exposed read-only.
@SuppressWarnings("ArrayRecordComponent")
public record TaskData(
    List<PromptedExample> train,
    List<PromptedExample> val,
    Tokenizer tokenizer,
    int[] stopTokenIds) {
  /** Copies the lists. */
  public TaskData {
    train = List.copyOf(train);
    val = List.copyOf(val);
    Objects.requireNonNull(tokenizer, "tokenizer");
    Objects.requireNonNull(stopTokenIds, "stopTokenIds");
  }
}
