package dev.javelin.datasets.order;

import dev.javelin.datasets.Example;
import dev.javelin.datasets.Tokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.ToIntFunction;

/**
 * Drops prompts longer than {@code max_prompt_length}, as VeRL's {@code filter_overlong_prompts}
 * does before training starts.
 */
public final class OverlongFilter {
  private OverlongFilter() {}

  /**
   * What survived the filter.
   *
   * @param kept examples with length at most the limit, in input order
   * @param filtered how many were dropped
   */
  public record Result(List<Example> kept, int filtered) {
    public Result {
      kept = List.copyOf(kept);
    }
  }

  /** Keeps examples whose {@code length} is at most {@code maxLength}. */
  public static Result apply(List<Example> examples, ToIntFunction<Example> length, int maxLength) {
    Objects.requireNonNull(examples, "examples");
    Objects.requireNonNull(length, "length");
    if (maxLength <= 0) {
      throw new IllegalArgumentException("maxLength must be > 0, got " + maxLength);
    }
    List<Example> kept = new ArrayList<>(examples.size());
    for (Example example : examples) {
      if (length.applyAsInt(example) <= maxLength) {
        kept.add(example);
      }
    }
    return new Result(kept, examples.size() - kept.size());
  }

  /**
   * Prompt length in tokens as the sampler will see it: the chat template with the generation
   * prompt, encoded.
   */
  public static ToIntFunction<Example> tokenLength(Tokenizer tokenizer) {
    Objects.requireNonNull(tokenizer, "tokenizer");
    return example -> tokenizer.encode(tokenizer.applyChatTemplate(example.prompt(), true)).length;
  }
}
