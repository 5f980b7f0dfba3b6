package dev.javelin.datasets;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Text to token ids and back. Implementations: Hugging Face {@code tokenizer.json} BPE (byte-level
 * or SentencePiece-style) and a character tokenizer for tiny models.
 */
public interface Tokenizer {

  /** Encodes text to token ids; special tokens written in the text are recognised. */
  int[] encode(String text);

  /** Decodes token ids to text; when {@code skipSpecial} is set, special tokens are dropped. */
  String decode(int[] ids, boolean skipSpecial);

  /** Number of ids (vocabulary plus added tokens); every id is in {@code [0, vocabSize())}. */
  int vocabSize();

  /** The end-of-sequence id that stops generation, if the tokenizer defines one. */
  OptionalInt eosId();

  /** The id used to pad batches; falls back to eos when no pad token exists. */
  OptionalInt padId();

  /**
   * Renders a conversation with this tokenizer's chat template.
   *
   * @param addGenerationPrompt append the assistant turn header so the model answers next
   */
  default String applyChatTemplate(List<ChatMessage> messages, boolean addGenerationPrompt) {
    return applyChatTemplate(messages, addGenerationPrompt, Map.of());
  }

  /**
   * Renders a conversation with this tokenizer's chat template and further template variables, as
   * {@code transformers}' {@code apply_chat_template(..., **kwargs)} does (e.g. Qwen3's {@code
   * enable_thinking: false}). A tokenizer without a template ignores {@code kwargs}.
   *
   * @param addGenerationPrompt append the assistant turn header so the model answers next
   * @param kwargs variables the template can read; they override special-token variables
   */
  String applyChatTemplate(
      List<ChatMessage> messages, boolean addGenerationPrompt, Map<String, ?> kwargs);
}
