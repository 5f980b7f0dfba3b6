package dev.javelin.datasets;

import java.util.Objects;

/**
 * One message of a chat-formatted prompt, as in VeRL's parquet {@code prompt} column and Hugging
 * Face chat templates.
 *
 * @param role "system", "user", "assistant" or "tool"
 * @param content the message text
 */
public record ChatMessage(String role, String content) {
  public ChatMessage {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(content, "content");
    if (role.isBlank()) {
      throw new IllegalArgumentException("chat message role must not be blank");
    }
  }

  public static ChatMessage system(String content) {
    return new ChatMessage("system", content);
  }

  public static ChatMessage user(String content) {
    return new ChatMessage("user", content);
  }

  public static ChatMessage assistant(String content) {
    return new ChatMessage("assistant", content);
  }
}
