package dev.javelin.datasets.tokenizer.template;

import dev.javelin.datasets.ChatMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A compiled Hugging Face chat template: the Jinja subset real {@code tokenizer_config.json}
 * templates use (Qwen2/Qwen3, Llama 3), rendered the way {@code transformers}' {@code
 * apply_chat_template} does ({@code trim_blocks}, {@code lstrip_blocks}, {@code raise_exception}, a
 * JSON-style {@code tojson}). Constructs outside the subset fail at compile time with an error that
 * names them.
 */
public final class ChatTemplate {
  private final List<Node> nodes;

  private ChatTemplate(List<Node> nodes) {
    this.nodes = nodes;
  }

  /** Parses {@code source}; throws {@link TemplateException} naming any unsupported construct. */
  public static ChatTemplate compile(String source) {
    Objects.requireNonNull(source, "source");
    return new ChatTemplate(Parser.parse(source));
  }

  /** Renders with arbitrary variables (strings, numbers, booleans, lists and maps of those). */
  public String render(Map<String, ?> variables) {
    return Interpreter.render(nodes, new HashMap<>(variables));
  }

  /**
   * Renders a conversation: {@code messages} as {@code [{role, content}]}, {@code
   * add_generation_prompt}, and {@code extra} (special tokens such as {@code bos_token}) as further
   * variables.
   */
  public String render(
      List<ChatMessage> messages, boolean addGenerationPrompt, Map<String, ?> extra) {
    List<Object> list = new ArrayList<>(messages.size());
    for (ChatMessage m : messages) {
      Map<String, Object> message = new LinkedHashMap<>();
      message.put("role", m.role());
      message.put("content", m.content());
      list.add(message);
    }
    Map<String, Object> variables = new HashMap<>(extra);
    variables.put("tools", null); // transformers passes these as None when absent: defined, falsy
    variables.put("documents", null);
    variables.put("messages", list);
    variables.put("add_generation_prompt", addGenerationPrompt);
    return Interpreter.render(nodes, variables);
  }
}
