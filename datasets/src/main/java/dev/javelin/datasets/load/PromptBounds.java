package dev.javelin.datasets.load;

import dev.javelin.datasets.ChatMessage;
import java.util.List;

/** The per-row prompt size check shared by the loaders. */
final class PromptBounds {
  private PromptBounds() {}

  static void check(List<ChatMessage> prompt, int maxPromptChars) throws MalformedRowException {
    long chars = 0;
    for (ChatMessage message : prompt) {
      chars += message.content().length();
    }
    if (chars > maxPromptChars) {
      throw new MalformedRowException(
          "prompt has " + chars + " chars, over maxPromptChars=" + maxPromptChars);
    }
  }
}
