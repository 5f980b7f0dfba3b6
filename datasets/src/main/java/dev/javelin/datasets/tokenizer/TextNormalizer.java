package dev.javelin.datasets.tokenizer;

import com.fasterxml.jackson.databind.JsonNode;
import java.text.Normalizer;
import java.util.List;

/**
 * One step of tokenizer.json's {@code normalizer}, applied to each text run between added tokens: a
 * Unicode form (NFC, NFKC, ...), SentencePiece's {@code Prepend} (a marker before non-empty text)
 * or a literal {@code Replace}.
 */
sealed interface TextNormalizer {
  String apply(String s);

  /** A Unicode normalization form; text already normal is returned as is, without a pass. */
  record UnicodeForm(Normalizer.Form form) implements TextNormalizer {
    @Override
    public String apply(String s) {
      int limit = form == Normalizer.Form.NFC ? 0x300 : 0x80;
      return isBelow(s, limit) ? s : Normalizer.normalize(s, form);
    }

    /**
     * Text below {@code limit} is unchanged by the form: U+0300 (where combining marks start) for
     * NFC, ASCII for the others.
     */
    private static boolean isBelow(String s, int limit) {
      for (int i = 0; i < s.length(); i++) {
        if (s.charAt(i) >= limit) {
          return false;
        }
      }
      return true;
    }
  }

  /** Puts {@code prefix} before the text unless it is empty (Llama 2's "▁"). */
  record Prepend(String prefix) implements TextNormalizer {
    @Override
    public String apply(String s) {
      return s.isEmpty() ? s : prefix + s;
    }
  }

  /** Replaces every occurrence of the literal {@code pattern} (e.g. " " by "▁"). */
  record Replace(String pattern, String content) implements TextNormalizer {
    @Override
    public String apply(String s) {
      return s.replace(pattern, content);
    }
  }

  /** Appends the steps of {@code node} (one step or a {@code Sequence}) to {@code out}. */
  static void parse(JsonNode node, String path, List<TextNormalizer> out) {
    if (node.isMissingNode() || node.isNull()) {
      return;
    }
    String type = node.path("type").asText();
    switch (type) {
      case "NFC" -> out.add(new UnicodeForm(Normalizer.Form.NFC));
      case "NFD" -> out.add(new UnicodeForm(Normalizer.Form.NFD));
      case "NFKC" -> out.add(new UnicodeForm(Normalizer.Form.NFKC));
      case "NFKD" -> out.add(new UnicodeForm(Normalizer.Form.NFKD));
      case "Prepend" -> out.add(new Prepend(text(node, "prepend", path)));
      case "Replace" -> out.add(replace(node, path));
      case "Sequence" -> {
        JsonNode steps = node.path("normalizers");
        if (!steps.isArray()) {
          throw new IllegalArgumentException(
              "tokenizer.json: " + path + ".normalizers must be an array");
        }
        for (int i = 0; i < steps.size(); i++) {
          parse(steps.get(i), path + ".normalizers[" + i + "]", out);
        }
      }
      default -> throw Pipeline.unsupported(path, type);
    }
  }

  /** A Replace of a literal string; regex patterns are rejected by name. */
  static Replace replace(JsonNode node, String path) {
    JsonNode pattern = node.path("pattern");
    if (!pattern.path("String").isTextual() || pattern.path("String").asText().isEmpty()) {
      throw new IllegalArgumentException(
          "tokenizer.json: "
              + path
              + ".pattern must be a non-empty {\"String\": ...} (Regex is not supported)");
    }
    return new Replace(pattern.path("String").asText(), text(node, "content", path));
  }

  static String text(JsonNode node, String field, String path) {
    JsonNode v = node.path(field);
    if (!v.isTextual()) {
      throw new IllegalArgumentException(
          "tokenizer.json: " + path + "." + field + " must be a string");
    }
    return v.asText();
  }
}
