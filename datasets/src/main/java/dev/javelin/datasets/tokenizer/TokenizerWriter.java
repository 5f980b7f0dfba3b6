package dev.javelin.datasets.tokenizer;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes a {@link BpeTokenizer} as Hugging Face files: {@code tokenizer.json} (streamed: the vocab
 * and merges are large) and {@code tokenizer_config.json}. Sections are written as they were read
 * (or, for a GGUF tokenizer, as built), so the files load back to the same tokenizer.
 */
final class TokenizerWriter {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> SECTIONS =
      List.of("added_tokens", "normalizer", "pre_tokenizer", "post_processor", "decoder");

  private TokenizerWriter() {}

  static void write(BpeTokenizer tokenizer, Path dir, long modelMaxLength) throws IOException {
    Files.createDirectories(dir);
    writeTokenizerJson(tokenizer.file().raw(), dir.resolve("tokenizer.json"));
    writeConfig(tokenizer.config(), dir.resolve("tokenizer_config.json"), modelMaxLength);
  }

  private static void writeTokenizerJson(TokenizerJsonReader.Raw raw, Path path)
      throws IOException {
    try (JsonGenerator g = JSON.getFactory().createGenerator(path.toFile(), JsonEncoding.UTF8)) {
      g.writeStartObject();
      g.writeStringField("version", "1.0");
      g.writeNullField("truncation");
      g.writeNullField("padding");
      for (String name : SECTIONS) {
        JsonNode node = raw.sections().get(name);
        g.writeFieldName(name);
        JSON.writeTree(g, node == null ? JSON.nullNode() : node);
      }
      g.writeObjectFieldStart("model");
      for (Map.Entry<String, JsonNode> option : raw.modelOptions().properties()) {
        g.writeFieldName(option.getKey());
        JSON.writeTree(g, option.getValue());
      }
      writeVocab(raw.vocab(), g);
      g.writeArrayFieldStart("merges");
      for (String[] pair : raw.merges()) {
        g.writeStartArray();
        g.writeString(pair[0]);
        g.writeString(pair[1]);
        g.writeEndArray();
      }
      g.writeEndArray();
      g.writeEndObject();
      g.writeEndObject();
    }
  }

  /** In id order, as Hugging Face writes it. */
  private static void writeVocab(Map<String, Integer> vocab, JsonGenerator g) throws IOException {
    g.writeObjectFieldStart("vocab");
    List<Map.Entry<String, Integer>> entries = new ArrayList<>(vocab.entrySet());
    entries.sort(Map.Entry.comparingByValue());
    for (Map.Entry<String, Integer> e : entries) {
      g.writeNumberField(e.getKey(), e.getValue());
    }
    g.writeEndObject();
  }

  private static void writeConfig(TokenizerConfig config, Path path, long modelMaxLength)
      throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("tokenizer_class", "PreTrainedTokenizerFast");
    config.specialTokens().forEach(root::put);
    root.put("model_max_length", modelMaxLength);
    config.chatTemplate().ifPresent(t -> root.put("chat_template", t));
    JSON.writerWithDefaultPrettyPrinter().writeValue(path.toFile(), root);
  }
}
