package dev.javelin.datasets.tokenizer;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Streams a {@code tokenizer.json}: the big {@code model.vocab} and {@code model.merges} go
 * straight into maps and arrays (no JSON tree of 150k nodes), everything else is read as small
 * trees. Sizes are bounded while reading, so a hostile file fails fast with the field named.
 */
final class TokenizerJsonReader {
  static final int MAX_VOCAB = 4_000_000;
  static final int MAX_MERGES = 4_000_000;
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The file's contents, big parts pre-parsed.
   *
   * @param sections top-level fields other than {@code model}, as trees
   * @param modelOptions {@code model} fields other than vocab and merges
   * @param vocab token → id
   * @param merges {left, right} per merge, by rank
   */
  record Raw(
      Map<String, JsonNode> sections,
      ObjectNode modelOptions,
      Map<String, Integer> vocab,
      List<String[]> merges) {}

  private TokenizerJsonReader() {}

  static Raw read(Path path) throws IOException {
    try (JsonParser p = JSON.createParser(path.toFile())) {
      expect(p.nextToken() == JsonToken.START_OBJECT, "the file must hold a JSON object");
      Map<String, JsonNode> sections = new HashMap<>();
      ObjectNode options = JSON.createObjectNode();
      Map<String, Integer> vocab = null;
      List<String[]> merges = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        p.nextToken();
        if (!field.equals("model")) {
          sections.put(field, p.readValueAsTree());
          continue;
        }
        expect(p.currentToken() == JsonToken.START_OBJECT, "model must be an object");
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String key = p.currentName();
          p.nextToken();
          switch (key) {
            case "vocab" -> vocab = readVocab(p);
            case "merges" -> merges = readMerges(p);
            default -> options.set(key, p.readValueAsTree());
          }
        }
      }
      expect(vocab != null, "model.vocab is missing");
      expect(merges != null, "model.merges is missing");
      return new Raw(sections, options, vocab, merges);
    }
  }

  private static Map<String, Integer> readVocab(JsonParser p) throws IOException {
    expect(p.currentToken() == JsonToken.START_OBJECT, "model.vocab must be an object");
    Map<String, Integer> vocab = new HashMap<>(1 << 18);
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String token = p.currentName();
      JsonToken value = p.nextToken();
      expect(
          value == JsonToken.VALUE_NUMBER_INT, "model.vocab[" + token + "] must be an integer id");
      long id = p.getLongValue();
      expect(
          id >= 0 && id < MAX_VOCAB,
          "model.vocab[" + token + "] = " + id + " is outside [0, " + MAX_VOCAB + ")");
      vocab.put(token, (int) id);
      expect(vocab.size() <= MAX_VOCAB, "model.vocab has more than " + MAX_VOCAB + " tokens");
    }
    return vocab;
  }

  /** Merges as {@code "left right"} strings or {@code ["left", "right"]} pairs. */
  private static List<String[]> readMerges(JsonParser p) throws IOException {
    expect(p.currentToken() == JsonToken.START_ARRAY, "model.merges must be an array");
    List<String[]> merges = new ArrayList<>(1 << 18);
    for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
      String where = "model.merges[" + merges.size() + "]";
      expect(merges.size() < MAX_MERGES, "model.merges has more than " + MAX_MERGES + " entries");
      if (t == JsonToken.VALUE_STRING) {
        String text = p.getText();
        int space = text.indexOf(' ');
        expect(space >= 0 && text.indexOf(' ', space + 1) < 0, where + " must be 'left right'");
        merges.add(new String[] {text.substring(0, space), text.substring(space + 1)});
      } else {
        expect(
            t == JsonToken.START_ARRAY && p.nextToken() == JsonToken.VALUE_STRING,
            where + " must be [left, right]");
        String left = p.getText();
        expect(p.nextToken() == JsonToken.VALUE_STRING, where + " must be [left, right]");
        String right = p.getText();
        expect(p.nextToken() == JsonToken.END_ARRAY, where + " must be [left, right]");
        merges.add(new String[] {left, right});
      }
    }
    return merges;
  }

  private static void expect(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException("tokenizer.json: " + message);
    }
  }
}
