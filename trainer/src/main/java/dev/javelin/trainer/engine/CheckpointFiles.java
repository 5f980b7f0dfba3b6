package dev.javelin.trainer.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.PeftAdapter;
import dev.javelin.backend.checkpoint.safetensors.SafetensorsFile;
import dev.javelin.backend.checkpoint.safetensors.SafetensorsWriter;
import dev.javelin.backend.checkpoint.safetensors.StorageType;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.backend.runtime.PolicyOptimizer;
import dev.javelin.trainer.TrainerState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The files of one trainer checkpoint: {@code config.json} + {@code model.safetensors} (HF names,
 * f32 so that resume is exact), {@code optimizer.safetensors} (AdamW moments {@code m.*}, {@code
 * v.*}) and {@code trainer_state.json} (optimizer step count and the driver's extra state). The LR
 * schedule is a pure function of the step count, so the count is its whole state.
 */
final class CheckpointFiles {
  static final String OPTIMIZER = "optimizer.safetensors";
  static final String STATE = "trainer_state.json";

  static final String LORA_ADAPTER = PeftAdapter.CHECKPOINT_DIR;

  private static final String FORMAT = "javelin-trainer-state/1";
  private static final int MAX_STATE_BYTES = 16 << 20;
  private static final ObjectMapper JSON = new ObjectMapper();

  private CheckpointFiles() {}

  static void save(
      Path dir,
      PolicyModel model,
      PolicyOptimizer optimizer,
      String modelType,
      Map<String, String> extra) {
    // model.safetensors is the policy as it runs (adapters merged), so the directory stays a
    // whole HF model; the adapters alone go to lora_adapter/ in PEFT's format.
    model.mergedCheckpoint().save(dir, modelType, StorageType.F32);
    if (model.lora().enabled()) {
      new PeftAdapter(model.lora(), model.adapterTensors()).save(dir.resolve(LORA_ADAPTER), null);
    }
    SafetensorsWriter.write(
        dir.resolve(OPTIMIZER),
        optimizer.optimizerState(),
        StorageType.F32,
        Map.of("optimizer_steps", Long.toString(optimizer.stepCount())));
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    root.put("optimizer_steps", optimizer.stepCount());
    ObjectNode ex = root.putObject("extra");
    // Sorted: the map may have crossed the wire as a hash map, and a resumed run must write the
    // same bytes as an uninterrupted one (the chaos soak compares checkpoints file for file).
    new TreeMap<>(extra).forEach(ex::put);
    try {
      Files.write(
          dir.resolve(STATE), JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + dir.resolve(STATE), e);
    }
  }

  static TrainerState load(Path dir, PolicyModel model, PolicyOptimizer optimizer) {
    TrainerState state = readState(dir.resolve(STATE));
    if (model.lora().enabled()) {
      // The base weights are frozen: the model already holds them; only the adapters resume.
      Path ad = dir.resolve(LORA_ADAPTER);
      if (!PeftAdapter.isIn(ad)) {
        throw new IllegalArgumentException(
            dir
                + " has no "
                + LORA_ADAPTER
                + "/"
                + PeftAdapter.CONFIG
                + ": it was saved without LoRA adapters (full fine-tuning)");
      }
      PeftAdapter adapter = PeftAdapter.load(ad, model.config());
      if (!adapter.lora().equals(model.lora())) {
        throw new IllegalArgumentException(
            ad + " holds " + adapter.lora() + ", the run asks for " + model.lora());
      }
      model.attachAdapters(adapter.lora(), adapter.tensors());
      optimizer.restore(readMoments(dir), state.optimizerSteps());
      return state;
    }
    Map<String, Tensor.F32> loaded = new LinkedHashMap<>();
    try (SafetensorsFile f = SafetensorsFile.open(dir.resolve("model.safetensors"))) {
      for (WeightSpec spec : WeightSpec.layout(model.config())) {
        String name = spec.name();
        if (!f.contains(name)) {
          throw new IllegalArgumentException(
              dir + ": model.safetensors lacks weight '" + name + "'");
        }
        loaded.put(name, f.readF32(name));
      }
    }
    model.loadWeights(loaded);
    optimizer.restore(readMoments(dir), state.optimizerSteps());
    return state;
  }

  private static Map<String, Tensor> readMoments(Path dir) {
    Map<String, Tensor> moments = new LinkedHashMap<>();
    try (SafetensorsFile f = SafetensorsFile.open(dir.resolve(OPTIMIZER))) {
      for (String name : f.tensors().keySet()) {
        moments.put(name, f.read(name));
      }
    }
    return moments;
  }

  /**
   * Reads {@code trainer_state.json}; throws {@link IllegalArgumentException} naming the file when
   * it is not one, {@link UncheckedIOException} when it cannot be read.
   */
  static TrainerState readState(Path file) {
    JsonNode root;
    byte[] bytes;
    try {
      if (!Files.isRegularFile(file)) {
        throw new IllegalArgumentException("checkpoint has no " + STATE + ": " + file);
      }
      if (Files.size(file) > MAX_STATE_BYTES) {
        throw new IllegalArgumentException(file + " is larger than " + MAX_STATE_BYTES + " bytes");
      }
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    try {
      root = JSON.readTree(bytes);
    } catch (IOException e) { // also the CharConversionException of a bad UTF-16/32 guess
      String why = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
      throw new IllegalArgumentException(file + " is not valid JSON: " + why, e);
    }
    if (root == null || !FORMAT.equals(root.path("format").asText())) {
      throw new IllegalArgumentException(file + ": not a " + FORMAT + " file");
    }
    JsonNode steps = root.get("optimizer_steps");
    if (steps == null || !steps.canConvertToLong() || steps.asLong() < 0) {
      throw new IllegalArgumentException(file + ": optimizer_steps must be an integer >= 0");
    }
    Map<String, String> extra = new LinkedHashMap<>();
    JsonNode ex = root.path("extra");
    if (!ex.isMissingNode() && !ex.isObject()) {
      throw new IllegalArgumentException(file + ": extra must be an object of strings");
    }
    for (Map.Entry<String, JsonNode> e : ex.properties()) {
      if (!e.getValue().isTextual()) {
        throw new IllegalArgumentException(file + ": extra." + e.getKey() + " must be a string");
      }
      extra.put(e.getKey(), e.getValue().asText());
    }
    return new TrainerState(steps.asLong(), extra);
  }
}
