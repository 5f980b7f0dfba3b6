package dev.javelin.datasets.tokenizer;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A {@code Split} pre-tokenizer on a literal string with {@code MergedWithPrevious} behaviour, as
 * Gemma 3 ships (on " ", which its normalizer has already replaced by "▁"): each piece ends with
 * the delimiter.
 *
 * @param delimiter the literal the text is cut after, not empty
 */
record LiteralSplit(String delimiter) implements Splitter {
  @Override
  public int end(String s, int pos) {
    int at = s.indexOf(delimiter, pos);
    return at < 0 ? s.length() : at + delimiter.length();
  }

  static LiteralSplit parse(JsonNode node, String path) {
    JsonNode pattern = node.path("pattern").path("String");
    String behavior = node.path("behavior").asText();
    if (!pattern.isTextual() || pattern.asText().isEmpty()) {
      throw new IllegalArgumentException(
          "tokenizer.json: "
              + path
              + ".pattern must be a non-empty {\"String\": ...} without a ByteLevel pre-tokenizer");
    }
    if (!"MergedWithPrevious".equals(behavior) || node.path("invert").asBoolean(false)) {
      throw new IllegalArgumentException(
          "tokenizer.json: "
              + path
              + ".behavior '"
              + behavior
              + "' is not supported here (only MergedWithPrevious, not inverted)");
    }
    return new LiteralSplit(pattern.asText());
  }
}
