package dev.javelin.recipes.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.javelin.recipes.metrics.BoundedMapper;

/**
 * JSON for the Jobs API: Jackson's tree model only (no data binding, no polymorphic types), with
 * limits on nesting, string and document size, so a confused or hostile server cannot make us
 * allocate without bound.
 */
final class BoundedJson {
  /** Largest answer we read (a long job's log). */
  static final int MAX_DOCUMENT_BYTES = 64 << 20;

  private static final ObjectMapper MAPPER = BoundedMapper.of(32, MAX_DOCUMENT_BYTES);

  private BoundedJson() {}

  /** Parses {@code text}; {@code what} names the answer in the error. */
  static JsonNode parse(String text, String what) {
    try {
      JsonNode n = MAPPER.readTree(text);
      if (n == null || n.isMissingNode()) {
        throw new JobsApiException(what + ": empty answer where JSON was expected", null);
      }
      return n;
    } catch (JsonProcessingException e) {
      throw new JobsApiException(
          what + ": invalid JSON (" + e.getOriginalMessage() + "): " + Excerpt.of(text), e);
    }
  }

  /** A fresh object node. */
  static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  /** Compact JSON text of {@code node}. */
  static String write(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }

  /** A text field, or null when absent or JSON null. */
  static String text(JsonNode o, String field) {
    JsonNode v = o.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }

  /** A required text field; names it when missing. */
  static String requiredText(JsonNode o, String field, String what) {
    String v = text(o, field);
    if (v == null) {
      throw new JobsApiException(
          what + ": no '" + field + "' in " + Excerpt.of(o.toString()), null);
    }
    return v;
  }

  /** A long field, or {@code dflt} when absent or not a number. */
  static long longValue(JsonNode o, String field, long dflt) {
    JsonNode v = o.get(field);
    return v != null && v.canConvertToLong() ? v.asLong() : dflt;
  }

  /** The first characters of a body, for error messages. */
  static final class Excerpt {
    private static final int MAX = 300;

    private Excerpt() {}

    static String of(String s) {
      if (s == null) {
        return "";
      }
      String t = s.strip();
      return t.length() <= MAX ? t : t.substring(0, MAX) + "…";
    }
  }
}
