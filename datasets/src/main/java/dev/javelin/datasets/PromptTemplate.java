package dev.javelin.datasets;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Turns a raw question into chat messages: an optional system message and one user message in which
 * {@value #QUESTION} is replaced by the question.
 *
 * <p>The presets follow VeRL's preprocessing scripts: {@code examples/data_preprocess/gsm8k.py}
 * appends an instruction to reason step by step and answer after {@code ####}; {@code
 * math_dataset.py} asks for the final answer in {@code \boxed{}}.
 *
 * @param name a short name for logs and recipes
 * @param system the system message; empty means none
 * @param user the user message pattern; must contain {@value #QUESTION}
 */
public record PromptTemplate(String name, String system, String user) {

  /** The placeholder replaced by the question text. */
  public static final String QUESTION = "{question}";

  /** The question as is: what tiny models see for synthetic tasks, e.g. {@code 123+456=}. */
  public static final PromptTemplate RAW = new PromptTemplate("raw", "", QUESTION);

  /** VeRL's GSM8K instruction suffix. */
  public static final PromptTemplate GSM8K =
      new PromptTemplate(
          "gsm8k",
          "",
          QUESTION + " Let's think step by step and output the final answer after \"####\".");

  /** VeRL's MATH instruction suffix. */
  public static final PromptTemplate MATH =
      new PromptTemplate(
          "math",
          "",
          QUESTION + " Let's think step by step and output the final answer within \\boxed{}.");

  /** TinyZero's countdown answer format. */
  public static final PromptTemplate COUNTDOWN =
      new PromptTemplate(
          "countdown",
          "",
          QUESTION
              + " Show your work in <think> </think> tags. And return the final answer in"
              + " <answer> </answer> tags, for example <answer> (1 + 2) / 3 </answer>.");

  public PromptTemplate {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(system, "system");
    Objects.requireNonNull(user, "user");
    if (name.isBlank()) {
      throw new IllegalArgumentException("prompt template name must not be blank");
    }
    if (!user.contains(QUESTION)) {
      throw new IllegalArgumentException(
          "prompt template '" + name + "': user must contain " + QUESTION + ", got: " + user);
    }
  }

  /** A preset by name: {@code raw}, {@code gsm8k}, {@code math} or {@code countdown}. */
  public static PromptTemplate named(String name) {
    return switch (Objects.requireNonNull(name, "name")) {
      case "raw" -> RAW;
      case "gsm8k" -> GSM8K;
      case "math" -> MATH;
      case "countdown" -> COUNTDOWN;
      default ->
          throw new IllegalArgumentException(
              "unknown prompt template '" + name + "'; known: raw, gsm8k, math, countdown");
    };
  }

  /** This template with another system message (empty for none). */
  public PromptTemplate withSystem(String newSystem) {
    return new PromptTemplate(name, newSystem, user);
  }

  /** The chat messages for one question. */
  public List<ChatMessage> render(String question) {
    Objects.requireNonNull(question, "question");
    List<ChatMessage> messages = new ArrayList<>(2);
    if (!system.isEmpty()) {
      messages.add(ChatMessage.system(system));
    }
    messages.add(ChatMessage.user(user.replace(QUESTION, question)));
    return List.copyOf(messages);
  }
}
