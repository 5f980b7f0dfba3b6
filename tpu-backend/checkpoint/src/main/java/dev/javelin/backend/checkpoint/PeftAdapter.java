package dev.javelin.backend.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.safetensors.SafetensorsFile;
import dev.javelin.backend.checkpoint.safetensors.SafetensorsWriter;
import dev.javelin.backend.checkpoint.safetensors.StorageType;
import dev.javelin.backend.model.LoraAdapters;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.model.ModelConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * LoRA adapters in PEFT's on-disk format, which {@code peft.PeftModel.from_pretrained} loads:
 * {@code adapter_config.json} and {@code adapter_model.safetensors} (f32), tensors named {@code
 * base_model.model.<A or B name>}.
 *
 * @param lora rank, alpha and target modules
 * @param tensors A and B by their in-model names ({@link LoraConfig.Adapter#a})
 */
public record PeftAdapter(LoraConfig lora, Map<String, Tensor.F32> tensors) {
  public static final String CONFIG = "adapter_config.json";
  public static final String WEIGHTS = "adapter_model.safetensors";

  /** Where a trainer checkpoint directory keeps the adapter of a LoRA run. */
  public static final String CHECKPOINT_DIR = "lora_adapter";

  private static final String PREFIX = "base_model.model.";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Whether {@code dir} holds a PEFT adapter. */
  public static boolean isIn(Path dir) {
    return Files.isRegularFile(dir.resolve(CONFIG));
  }

  /**
   * Writes both files into {@code dir}; {@code baseModel} (nullable) becomes {@code
   * base_model_name_or_path}, where PEFT looks for the base weights.
   */
  public void save(Path dir, String baseModel) {
    ObjectNode root = JSON.createObjectNode();
    root.put("peft_type", "LORA");
    root.put("task_type", "CAUSAL_LM");
    root.put("r", lora.rank());
    root.put("lora_alpha", lora.alpha());
    ArrayNode targets = root.putArray("target_modules");
    LoraConfig.MODULES.stream().filter(lora.targets()::contains).forEach(targets::add);
    root.put("lora_dropout", lora.dropout());
    root.put("bias", "none");
    root.put("fan_in_fan_out", false);
    root.put("use_rslora", false);
    root.put("use_dora", false);
    root.put("inference_mode", true);
    root.put("init_lora_weights", true);
    if (baseModel == null) {
      root.putNull("base_model_name_or_path");
    } else {
      root.put("base_model_name_or_path", baseModel);
    }
    Map<String, Tensor.F32> named = new LinkedHashMap<>();
    tensors.forEach((k, v) -> named.put(PREFIX + k, v));
    try {
      Files.createDirectories(dir);
      Files.write(
          dir.resolve(CONFIG), JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + dir.resolve(CONFIG), e);
    }
    SafetensorsWriter.write(dir.resolve(WEIGHTS), named, StorageType.F32, Map.of("format", "pt"));
  }

  /**
   * The rank, alpha and targets of the adapter in {@code dir} (its adapter_config.json alone); a
   * config PEFT would apply differently (rsLoRA, DoRA, a layer subset, per-module ranks) is refused
   * by name.
   */
  public static LoraConfig readConfig(Path dir) {
    Path cfg = dir.resolve(CONFIG);
    JsonNode root;
    try {
      root = JSON.readTree(Files.readAllBytes(cfg));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + cfg, e);
    }
    if (root == null || !"LORA".equals(root.path("peft_type").asText())) {
      throw new IllegalArgumentException(cfg + ": peft_type must be LORA");
    }
    for (String off :
        new String[] {"use_rslora", "use_dora", "use_qalora", "fan_in_fan_out", "lora_bias"}) {
      if (root.path(off).asBoolean(false)) {
        throw new IllegalArgumentException(cfg + ": " + off + "=true is not supported");
      }
    }
    for (String none :
        new String[] {
          "layers_to_transform",
          "modules_to_save",
          "layer_replication",
          "target_parameters",
          "trainable_token_indices"
        }) {
      if (!root.path(none).isMissingNode() && !root.path(none).isNull()) {
        throw new IllegalArgumentException(cfg + ": " + none + " is not supported");
      }
    }
    if (!"none".equals(root.path("bias").asText("none"))) {
      throw new IllegalArgumentException(cfg + ": bias must be none (trained biases unsupported)");
    }
    for (String empty : new String[] {"rank_pattern", "alpha_pattern"}) {
      if (root.path(empty).size() > 0) {
        throw new IllegalArgumentException(cfg + ": " + empty + " is not supported");
      }
    }
    Set<String> targets = new LinkedHashSet<>();
    JsonNode t = root.path("target_modules");
    if (t.isTextual() && "all-linear".equals(t.asText())) {
      targets.addAll(LoraConfig.MODULES);
    } else {
      t.forEach(n -> targets.add(n.asText()));
    }
    LoraConfig lora;
    try {
      lora =
          new LoraConfig(
              root.path("r").asInt(),
              root.path("lora_alpha").asDouble(),
              targets,
              root.path("lora_dropout").asDouble(0));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(cfg + ": " + e.getMessage(), e);
    }
    return lora;
  }

  /**
   * Reads the adapter in {@code dir} for a model of shape {@code c}; a config PEFT would apply
   * differently (rsLoRA, DoRA, a layer subset, per-module ranks) is refused by name.
   */
  public static PeftAdapter load(Path dir, ModelConfig c) {
    LoraConfig lora = readConfig(dir);
    Map<String, Tensor.F32> tensors = new LinkedHashMap<>();
    try (SafetensorsFile f = SafetensorsFile.open(dir.resolve(WEIGHTS))) {
      for (LoraConfig.Adapter a : lora.adapters(c)) {
        for (String name : new String[] {a.a(), a.b()}) {
          if (!f.contains(PREFIX + name)) {
            throw new IllegalArgumentException(
                dir.resolve(WEIGHTS) + " lacks '" + PREFIX + name + "'");
          }
          tensors.put(name, f.readF32(PREFIX + name));
        }
      }
    }
    LoraAdapters.check(lora, c, tensors);
    return new PeftAdapter(lora, tensors);
  }
}
