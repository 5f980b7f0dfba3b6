package dev.javelin.datasets.load;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON trees to the immutable Java values allowed in {@link
 * dev.javelin.datasets.Example#extraInfo()}.
 */
final class JsonValues {
  /** Deep enough for VeRL's nested {@code extra_info}, shallow enough to stop hostile nesting. */
  private static final int MAX_NESTING = 64;

  private JsonValues() {}

  /** A mapper whose parser refuses strings longer than {@code maxStringChars} and deep nesting. */
  static ObjectMapper boundedMapper(int maxStringChars) {
    StreamReadConstraints constraints =
        StreamReadConstraints.builder()
            .maxStringLength(maxStringChars)
            .maxNestingDepth(MAX_NESTING)
            .build();
    JsonMapper mapper =
        JsonMapper.builder().disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();
    mapper.getFactory().setStreamReadConstraints(constraints);
    return mapper;
  }

  /** An immutable ordered map of an object node's non-null fields. */
  static Map<String, Object> toMap(JsonNode object) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> field : object.properties()) {
      Object value = toJava(field.getValue());
      if (value != null) {
        map.put(field.getKey(), value);
      }
    }
    return Collections.unmodifiableMap(map);
  }

  /** The Java value of a node; null for JSON null. */
  static Object toJava(JsonNode node) {
    return switch (node.getNodeType()) {
      case STRING -> node.textValue();
      case BOOLEAN -> node.booleanValue();
      case NUMBER -> number(node);
      case ARRAY -> list(node);
      case OBJECT -> toMap(node);
      case BINARY, POJO, MISSING, NULL -> null;
    };
  }

  /**
   * The text of a scalar node (numbers in their JSON spelling), or null for containers and null.
   */
  static String scalarText(JsonNode node) {
    if (node == null || node.isNull() || node.isContainerNode()) {
      return null;
    }
    return node.isTextual() ? node.textValue() : node.asText();
  }

  private static Object number(JsonNode node) {
    if (node.isIntegralNumber()) {
      return node.canConvertToLong() ? (Object) node.longValue() : node.bigIntegerValue();
    }
    return node.doubleValue();
  }

  private static List<Object> list(JsonNode array) {
    List<Object> list = new ArrayList<>(array.size());
    for (JsonNode element : array) {
      list.add(toJava(element)); // JSON null inside a list stays null: indices keep their meaning
    }
    return Collections.unmodifiableList(list);
  }
}
