package dev.javelin.datasets.synthetic;

import java.util.Map;
import java.util.Objects;

/**
 * One generated task instance before templating.
 *
 * @param key identity for de-duplication and the train/held-out split (e.g. {@code 123+456})
 * @param question the text put in place of {@code {question}} in the prompt template
 * @param answer the ground truth string
 * @param extraInfo task parameters for the reward function (immutable JSON-like values)
 */
public record Problem(String key, String question, String answer, Map<String, Object> extraInfo) {
  public Problem {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(question, "question");
    Objects.requireNonNull(answer, "answer");
    Objects.requireNonNull(extraInfo, "extraInfo");
  }
}
