package dev.javelin.datasets.tokenizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.javelin.datasets.ChatMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Chat templates render exactly as {@code transformers}' {@code apply_chat_template} (fixtures).
 */
class ChatTemplateParityTest {

  @ParameterizedTest
  @ValueSource(strings = {"qwen3", "llama3", "qwen2_5", "smollm2", "smollm2-gguf"})
  void rendersLikeTransformers(String name) {
    BpeTokenizer tokenizer = TestFiles.tokenizer(name);
    JsonNode doc = TestFiles.resourceJson("chat-templates.json");
    JsonNode conversations = doc.get("conversations");
    // The GGUF's tokenizer.chat_template is the one transformers copies into tokenizer_config.json.
    JsonNode expected = doc.get("expected").get(name.replace("-gguf", ""));
    assertTrue(conversations.size() >= 10, "at least 10 conversations");
    for (int i = 0; i < conversations.size(); i++) {
      List<ChatMessage> messages = new ArrayList<>();
      for (JsonNode m : conversations.get(i)) {
        messages.add(new ChatMessage(m.get("role").asText(), m.get("content").asText()));
      }
      for (boolean generationPrompt : new boolean[] {false, true}) {
        int index = i;
        assertEquals(
            expected.get(index).get(Boolean.toString(generationPrompt)).asText(),
            tokenizer.applyChatTemplate(messages, generationPrompt),
            () -> name + " conversation " + index + " addGenerationPrompt=" + generationPrompt);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"qwen3", "llama3", "qwen2_5", "smollm2", "smollm2-gguf"})
  void renderedPromptEncodesSpecialTokensAsSingleIds(String name) {
    BpeTokenizer tokenizer = TestFiles.tokenizer(name);
    String prompt = tokenizer.applyChatTemplate(List.of(ChatMessage.user("What is 2+2?")), true);
    int[] ids = tokenizer.encode(prompt);
    String decoded = tokenizer.decode(ids, false);
    assertEquals(prompt, decoded);
    assertTrue(
        tokenizer.decode(ids, true).length() < prompt.length(), "special tokens are dropped");
  }

  /**
   * Qwen3's own template (the npm Qwen3 tokenizer's tokenizer_config.json) with {@code
   * enable_thinking}: the expected strings are transformers' {@code apply_chat_template(m,
   * tokenize=False, add_generation_prompt=..., enable_thinking=...)} on the same files.
   */
  @Test
  void qwen3EnableThinkingFalseClosesAnEmptyThinkBlock() {
    BpeTokenizer qwen3 = TestFiles.tokenizer("qwen3");
    List<ChatMessage> chat = List.of(ChatMessage.user("What is 2+2?"));
    String header = "<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n";
    assertEquals(header, qwen3.applyChatTemplate(chat, true));
    assertEquals(
        header + "<think>\n\n</think>\n\n",
        qwen3.applyChatTemplate(chat, true, Map.of("enable_thinking", false)));
    assertEquals(header, qwen3.applyChatTemplate(chat, true, Map.of("enable_thinking", true)));
    assertEquals(
        "<|im_start|>user\nWhat is 2+2?<|im_end|>\n",
        qwen3.applyChatTemplate(chat, false, Map.of("enable_thinking", false)));
  }
}
