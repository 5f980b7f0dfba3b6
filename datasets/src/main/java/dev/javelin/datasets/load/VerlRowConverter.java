package dev.javelin.datasets.load;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.datasets.ChatMessage;
import dev.javelin.datasets.DatasetSpec;
import dev.javelin.datasets.Example;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One VeRL parquet row (nested columns as JSON text) to an {@link Example}.
 *
 * <p>{@code extraInfo} is the row's {@code extra_info} object, plus {@code ability} and {@code
 * reward_style} when the row has them and {@code extra_info} does not already use those keys.
 */
final class VerlRowConverter {

  /** The row as read: nested columns are JSON text; absent columns are null. */
  record RawRow(
      long index,
      String dataSource,
      String promptJson,
      String ability,
      String rewardModelJson,
      String extraInfoJson) {}

  private final DatasetSpec spec;
  private final ObjectMapper mapper;

  VerlRowConverter(DatasetSpec spec) {
    this.spec = spec;
    this.mapper = JsonValues.boundedMapper(spec.limits().maxRowChars());
  }

  Example convert(RawRow row) throws MalformedRowException {
    String dataSource = row.dataSource() != null ? row.dataSource() : spec.dataSource();
    if (dataSource == null || dataSource.isBlank()) {
      throw new MalformedRowException("data_source is null or blank");
    }
    List<ChatMessage> prompt = prompt(parse(row.promptJson(), "prompt"));
    PromptBounds.check(prompt, spec.limits().maxPromptChars());
    JsonNode rewardModel = parse(row.rewardModelJson(), "reward_model");
    String groundTruth = JsonValues.scalarText(rewardModel.get("ground_truth"));
    if (groundTruth == null) {
      throw new MalformedRowException("reward_model.ground_truth is missing, null or not a scalar");
    }
    Map<String, Object> extraInfo = new LinkedHashMap<>();
    if (row.extraInfoJson() != null) {
      JsonNode extra = parse(row.extraInfoJson(), "extra_info");
      if (extra.isObject()) {
        extraInfo.putAll(JsonValues.toMap(extra));
      }
    }
    if (row.ability() != null) {
      extraInfo.putIfAbsent("ability", row.ability());
    }
    String style = JsonValues.scalarText(rewardModel.get("style"));
    if (style != null) {
      extraInfo.putIfAbsent("reward_style", style);
    }
    return new Example(
        Example.uid(dataSource, row.index(), prompt, groundTruth),
        dataSource,
        prompt,
        groundTruth,
        extraInfo);
  }

  private JsonNode parse(String json, String column) throws MalformedRowException {
    if (json == null) {
      throw new MalformedRowException(column + " is null");
    }
    int maxRowChars = spec.limits().maxRowChars();
    if (json.length() > maxRowChars) {
      throw new MalformedRowException(column + " is longer than maxRowChars=" + maxRowChars);
    }
    try {
      JsonNode node = mapper.readTree(json);
      if (node == null || node.isNull()) {
        throw new MalformedRowException(column + " is null");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new MalformedRowException(column + " is not valid JSON: " + e.getOriginalMessage());
    }
  }

  private static List<ChatMessage> prompt(JsonNode messages) throws MalformedRowException {
    if (!messages.isArray() || messages.isEmpty()) {
      throw new MalformedRowException("prompt must be a non-empty list of {role, content}");
    }
    List<ChatMessage> prompt = new ArrayList<>(messages.size());
    int position = 0;
    for (JsonNode message : messages) {
      String role = message.isObject() ? JsonValues.scalarText(message.get("role")) : null;
      String content = message.isObject() ? JsonValues.scalarText(message.get("content")) : null;
      if (role == null || role.isBlank() || content == null) {
        throw new MalformedRowException(
            "prompt[" + position + "] needs a non-blank role and a content string");
      }
      prompt.add(new ChatMessage(role, content));
      position++;
    }
    return prompt;
  }
}
