package dev.javelin.datasets.tokenizer;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The single-sequence template of a {@code TemplateProcessing} post-processor: the special-token
 * ids written before and after the text (e.g. {@code <s> $A </s>}).
 */
final class TemplateSpec {
  private static final int MAX_TEMPLATE_IDS = 64;

  private TemplateSpec() {}

  /** {prefix ids, suffix ids} of {@code node.single}, around its one {@code Sequence A}. */
  static List<int[]> singleTemplate(JsonNode node, String path) {
    JsonNode single = node.path("single");
    IntList prefix = new IntList();
    IntList suffix = new IntList();
    boolean seenSequence = false;
    for (int i = 0; i < single.size(); i++) {
      JsonNode item = single.get(i);
      String where = path + ".single[" + i + "]";
      if (item.has("Sequence")) {
        require(
            !seenSequence && "A".equals(item.path("Sequence").path("id").asText()),
            where + ": the single template must hold Sequence A once");
        seenSequence = true;
      } else if (item.has("SpecialToken")) {
        String name = item.path("SpecialToken").path("id").asText();
        JsonNode ids = node.path("special_tokens").path(name).path("ids");
        require(
            ids.isArray() && !ids.isEmpty() && ids.size() <= MAX_TEMPLATE_IDS,
            where + ": special token '" + name + "' has no ids in " + path + ".special_tokens");
        for (JsonNode id : ids) {
          require(id.canConvertToInt() && id.asInt() >= 0, where + ": bad id for '" + name + "'");
          (seenSequence ? suffix : prefix).add(id.asInt());
        }
      } else {
        throw new IllegalArgumentException(
            "tokenizer.json: " + where + " must be a Sequence or a SpecialToken");
      }
    }
    require(seenSequence, path + ".single has no Sequence A");
    return List.of(prefix.toArray(), suffix.toArray());
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException("tokenizer.json: " + message);
    }
  }
}
