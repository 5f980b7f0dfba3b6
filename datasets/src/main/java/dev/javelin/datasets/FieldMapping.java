package dev.javelin.datasets;

import java.util.Objects;

/**
 * Which JSONL fields hold the question and the answer, and how the ground truth is extracted.
 *
 * @param question field with the question text, e.g. GSM8K {@code question}, MATH-500 {@code
 *     problem}
 * @param answer field with the answer, e.g. {@code answer}
 * @param extractor how the ground truth is taken from the answer field
 */
public record FieldMapping(String question, String answer, AnswerExtractor extractor) {

  /** GSM8K: {@code question}; {@code answer} ends with {@code #### <number>}. */
  public static final FieldMapping GSM8K =
      new FieldMapping("question", "answer", AnswerExtractor.GSM8K_HASHES);

  /** MATH-500: {@code problem}; {@code answer} is the final answer in LaTeX. */
  public static final FieldMapping MATH500 =
      new FieldMapping("problem", "answer", AnswerExtractor.VERBATIM);

  public FieldMapping {
    Objects.requireNonNull(question, "question");
    Objects.requireNonNull(answer, "answer");
    Objects.requireNonNull(extractor, "extractor");
    if (question.isBlank() || answer.isBlank()) {
      throw new IllegalArgumentException(
          "field mapping: question and answer field names must be set");
    }
  }
}
