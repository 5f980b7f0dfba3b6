package dev.javelin.datasets.tokenizer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The parts of a Hugging Face {@code tokenizer_config.json} that Javelin uses.
 *
 * @param chatTemplate the Jinja chat template, if any
 * @param specialTokens {@code bos_token}, {@code eos_token}, {@code pad_token}, {@code unk_token} →
 *     text, for those present; chat templates see them as variables (as in {@code transformers})
 */
record TokenizerConfig(Optional<String> chatTemplate, Map<String, String> specialTokens) {
  private static final long MAX_FILE_BYTES = 64L << 20;
  private static final String[] SPECIAL_KEYS = {"bos_token", "eos_token", "pad_token", "unk_token"};

  TokenizerConfig {
    Objects.requireNonNull(chatTemplate, "chatTemplate");
    specialTokens = Map.copyOf(specialTokens);
  }

  /** A config with no template and no special tokens, for a tokenizer.json without its config. */
  static TokenizerConfig empty() {
    return new TokenizerConfig(Optional.empty(), Map.of());
  }

  TokenizerConfig withChatTemplate(String template) {
    return new TokenizerConfig(Optional.of(template), specialTokens);
  }

  static TokenizerConfig read(Path path) throws IOException {
    long size = Files.size(path);
    if (size > MAX_FILE_BYTES) {
      throw new IllegalArgumentException(path + ": " + size + " bytes exceeds the 64 MiB limit");
    }
    JsonNode root = new ObjectMapper().readTree(path.toFile());
    try {
      return parse(root);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
    }
  }

  static TokenizerConfig parse(JsonNode root) {
    Map<String, String> special = new LinkedHashMap<>();
    for (String key : SPECIAL_KEYS) {
      JsonNode v = root.path(key);
      if (v.isTextual()) {
        special.put(key, v.asText());
      } else if (v.isObject() && v.path("content").isTextual()) { // {"content": "<s>", ...}
        special.put(key, v.path("content").asText());
      } else if (!v.isMissingNode() && !v.isNull()) {
        throw new IllegalArgumentException(key + " must be a string or {content: string}");
      }
    }
    return new TokenizerConfig(templateOf(root.path("chat_template")), special);
  }

  /** A string, or a list of {name, template} where the "default" entry is the chat template. */
  private static Optional<String> templateOf(JsonNode node) {
    if (node.isTextual()) {
      return Optional.of(node.asText());
    }
    if (node.isArray()) {
      for (JsonNode entry : node) {
        if ("default".equals(entry.path("name").asText()) && entry.path("template").isTextual()) {
          return Optional.of(entry.path("template").asText());
        }
      }
      throw new IllegalArgumentException("chat_template list has no entry named 'default'");
    }
    if (node.isMissingNode() || node.isNull()) {
      return Optional.empty();
    }
    throw new IllegalArgumentException(
        "chat_template must be a string or a list of {name, template}");
  }
}
