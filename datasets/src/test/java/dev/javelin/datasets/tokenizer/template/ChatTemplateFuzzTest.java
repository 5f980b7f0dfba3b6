package dev.javelin.datasets.tokenizer.template;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.javelin.datasets.ChatMessage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Timeout;

/**
 * Contract: any template source (the input up to its first NUL byte) compiles and renders any
 * conversation (the rest, one message per further NUL-separated part) to a string, or fails with
 * {@link TemplateException}; never another exception, never more than 5 s on one input (templates
 * have loops: {@link RenderBudget} bounds steps and sizes), never beyond the 1 GB test heap.
 */
class ChatTemplateFuzzTest {
  private static final Map<String, Object> EXTRA = Map.of("bos_token", "<s>", "eos_token", "</s>");

  @FuzzTest(maxDuration = "12s")
  @Timeout(5)
  void anyTemplateRendersOrFailsTyped(byte[] bytes) {
    List<String> parts = new ArrayList<>();
    int from = 0;
    for (int i = 0; i <= bytes.length; i++) {
      if (i == bytes.length || bytes[i] == 0) {
        parts.add(new String(bytes, from, i - from, StandardCharsets.UTF_8));
        from = i + 1;
      }
    }
    List<ChatMessage> messages = new ArrayList<>();
    String[] roles = {"system", "user", "assistant", "user"};
    for (int i = 1; i < parts.size(); i++) {
      messages.add(new ChatMessage(roles[(i - 1) % roles.length], parts.get(i)));
    }
    try {
      ChatTemplate.compile(parts.get(0)).render(messages, true, EXTRA);
    } catch (TemplateException expected) {
      // the typed failure the contract allows
    }
  }
}
