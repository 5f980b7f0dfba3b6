package dev.javelin.backend.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.javelin.backend.model.Architecture;
import dev.javelin.backend.model.Architectures;
import dev.javelin.backend.model.ConfigFields;
import dev.javelin.backend.model.ModelConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/** Maps Hugging Face {@code config.json} keys to and from {@link ModelConfig}. */
public final class HfConfigJson {
  private HfConfigJson() {}

  /**
   * Reads a Hugging Face {@code config.json} of a model type {@link Architectures} lists. Rotary
   * scaling variants other than the default, and sliding-window attention, are refused rather than
   * silently ignored.
   */
  public static ModelConfig read(Path configJson) {
    return parse(readTree(configJson), configJson.toString());
  }

  static ModelConfig parse(JsonNode root, String where) {
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(where + ": config must be a JSON object");
    }
    Architecture type = parseType(root, where).configured(new Fields(root, where));
    if (root.path("use_sliding_window").asBoolean(false)) {
      throw new IllegalArgumentException(where + ": use_sliding_window=true is not supported");
    }
    var activation = type.activation();
    String act = root.path(activation.getKey()).asText(activation.getValue());
    if (!act.equals(activation.getValue())) {
      throw new IllegalArgumentException(
          where
              + ": "
              + activation.getKey()
              + " '"
              + act
              + "' (only "
              + activation.getValue()
              + ")");
    }
    if (root.path("mlp_bias").asBoolean(false)) {
      throw new IllegalArgumentException(where + ": mlp_bias=true is not supported");
    }
    int hidden = required(root, "hidden_size", where);
    int heads = required(root, "num_attention_heads", where);
    int kvHeads = root.path("num_key_value_heads").asInt(heads);
    int headDim = root.hasNonNull("head_dim") ? root.get("head_dim").asInt() : hidden / heads;
    // Qwen2 configs state no attention_bias (their biases are implied); others say so explicitly
    boolean bias = root.path("attention_bias").asBoolean(type.impliedQkvBias());
    return new ModelConfig(
        required(root, "vocab_size", where),
        hidden,
        required(root, "intermediate_size", where),
        required(root, "num_hidden_layers", where),
        heads,
        kvHeads,
        headDim,
        ropeTheta(root, type, where),
        root.path("rms_norm_eps").asDouble(1e-6),
        root.path("tie_word_embeddings").asBoolean(type.impliedTiedHead()),
        bias,
        root.path("max_position_embeddings").asInt(2048),
        type);
  }

  /** The {@code model_type} of a config.json, checked to be one this model supports. */
  static String modelType(Path configJson) {
    return parseType(readTree(configJson), configJson.toString()).modelType();
  }

  static JsonNode readTree(Path configJson) {
    try {
      return new ObjectMapper().readTree(Files.readString(configJson));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read HF config " + configJson, e);
    }
  }

  private static Architecture parseType(JsonNode root, String where) {
    String type = root == null ? "" : root.path("model_type").asText("");
    return Architectures.byModelType(type)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    where
                        + ": model_type '"
                        + type
                        + "' is not supported "
                        + Architectures.modelTypes()));
  }

  /**
   * transformers ≥ 5 nests θ in rope_parameters (per layer type where the layers differ: the global
   * layers' is θ); older configs have rope_theta + rope_scaling.
   */
  private static double ropeTheta(JsonNode root, Architecture type, String where) {
    JsonNode params = root.get("rope_parameters");
    if (params != null && params.path("full_attention").isObject()) {
      params = params.get("full_attention");
    }
    JsonNode scaling = root.get("rope_scaling");
    JsonNode variant = params != null && params.isObject() ? params : scaling;
    if (variant != null && variant.isObject()) {
      String kind = variant.path("rope_type").asText(variant.path("type").asText("default"));
      if (!kind.equals("default") && !type.readsRopeScaling()) {
        throw new IllegalArgumentException(
            where + ": rope_type '" + kind + "' is not supported (only default rotary)");
      }
      if (variant.hasNonNull("rope_theta")) {
        return variant.get("rope_theta").asDouble();
      }
    }
    return root.path("rope_theta").asDouble(10_000.0);
  }

  private static int required(JsonNode root, String key, String where) {
    JsonNode v = root.get(key);
    if (v == null || !v.canConvertToInt()) {
      throw new IllegalArgumentException(where + ": missing or non-integer '" + key + "'");
    }
    return v.asInt();
  }

  /**
   * {@code c} as a Hugging Face {@code config.json} object of the given model type (one whose block
   * is {@code c}'s: {@link ModelConfig#relabelled}).
   */
  public static ObjectNode write(ModelConfig c, String modelType) {
    return write(c.relabelled(Architectures.of(modelType)));
  }

  /** {@code c} as a Hugging Face {@code config.json} object of its own architecture. */
  public static ObjectNode write(ModelConfig c) {
    ObjectNode o = new ObjectMapper().createObjectNode();
    o.putArray("architectures").add(c.architecture().hfClass());
    o.put("model_type", c.architecture().modelType());
    o.put("vocab_size", c.vocabSize());
    o.put("hidden_size", c.hidden());
    o.put("intermediate_size", c.intermediate());
    o.put("num_hidden_layers", c.layers());
    o.put("num_attention_heads", c.heads());
    o.put("num_key_value_heads", c.kvHeads());
    o.put("head_dim", c.headDim());
    o.put(c.architecture().activation().getKey(), c.architecture().activation().getValue());
    o.put("rms_norm_eps", c.rmsNormEps());
    o.put("rope_theta", c.ropeTheta());
    o.put("tie_word_embeddings", c.tieWordEmbeddings());
    o.put("attention_bias", c.qkvBias());
    o.put("max_position_embeddings", c.maxPositions());
    o.put("torch_dtype", "float32");
    ObjectMapper m = new ObjectMapper();
    c.architecture().configFields().forEach((k, v) -> o.set(k, m.valueToTree(v)));
    return o;
  }

  private static final JsonNode EMPTY = new ObjectMapper().createObjectNode();

  /** The config.json fields a family reads for itself. */
  private record Fields(JsonNode root, String where) implements ConfigFields {
    @Override
    public int integer(String key, int fallback) {
      return value(key, fallback, JsonNode::canConvertToInt, JsonNode::asInt, "an integer");
    }

    @Override
    public double real(String key, double fallback) {
      return value(key, fallback, JsonNode::isNumber, JsonNode::asDouble, "a number");
    }

    @Override
    public boolean flag(String key, boolean fallback) {
      return value(key, fallback, JsonNode::isBoolean, JsonNode::asBoolean, "true or false");
    }

    /** The value of key as get reads it, fallback when absent or null. */
    private <T> T value(
        String key, T fallback, Predicate<JsonNode> ok, Function<JsonNode, T> get, String what) {
      JsonNode v = root.get(key);
      if (v == null || v.isNull()) {
        return fallback;
      }
      if (!ok.test(v)) {
        throw new IllegalArgumentException(where + ": '" + key + "' must be " + what);
      }
      return get.apply(v);
    }

    @Override
    public String text(String key, String fallback) {
      return value(key, fallback, JsonNode::isTextual, JsonNode::asText, "a string");
    }

    @Override
    public boolean has(String key) {
      return root.hasNonNull(key);
    }

    @Override
    public ConfigFields section(String key) {
      JsonNode v = root.get(key);
      if (v != null && !v.isNull() && !v.isObject()) {
        throw new IllegalArgumentException(where + ": '" + key + "' must be an object");
      }
      return new Fields(v == null || v.isNull() ? EMPTY : v, where + " " + key);
    }

    @Override
    public List<String> texts(String key) {
      return list(key, JsonNode::isTextual, JsonNode::asText, "strings");
    }

    @Override
    public List<Integer> integers(String key) {
      return list(key, JsonNode::canConvertToInt, JsonNode::asInt, "integers");
    }

    /** The list under key as get reads its elements; empty when absent or null. */
    private <T> List<T> list(
        String key, Predicate<JsonNode> ok, Function<JsonNode, T> get, String what) {
      JsonNode v = root.get(key);
      if (v == null || v.isNull()) {
        return List.of();
      }
      List<T> out = new ArrayList<>();
      for (JsonNode e : v) {
        if (!ok.test(e)) {
          throw new IllegalArgumentException(where + ": '" + key + "' must list " + what);
        }
        out.add(get.apply(e));
      }
      if (!v.isArray()) {
        throw new IllegalArgumentException(where + ": '" + key + "' must be a list of " + what);
      }
      return out;
    }
  }
}
