package dev.javelin.backend.checkpoint;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.backend.model.ModelConfig;

/**
 * A {@link ModelConfig} as Hugging Face {@code config.json} text, for passing a model's shape to
 * another actor without a file (e.g. a sampler that receives its weights by snapshot).
 */
public final class ModelConfigJson {
  private ModelConfigJson() {}

  /**
   * The config.json text of {@code config} labelled {@code modelType} ({@link
   * ModelConfig#relabelled}).
   */
  public static String write(ModelConfig config, String modelType) {
    return HfConfigJson.write(config, modelType).toString();
  }

  /**
   * Parses config.json text.
   *
   * @throws IllegalArgumentException when it is not valid JSON or not a supported config
   */
  public static ModelConfig parse(String json) {
    try {
      return HfConfigJson.parse(new ObjectMapper().readTree(json), "config json");
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "config json is not valid JSON: " + e.getOriginalMessage(), e);
    }
  }
}
