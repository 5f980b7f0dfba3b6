package dev.javelin.trainer.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.PeftAdapter;
import dev.javelin.backend.checkpoint.safetensors.CheckpointShard;
import dev.javelin.backend.checkpoint.safetensors.HfCheckpoint;
import dev.javelin.backend.checkpoint.safetensors.SafetensorsFile;
import dev.javelin.backend.checkpoint.safetensors.SafetensorsWriter;
import dev.javelin.backend.checkpoint.safetensors.StorageType;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.backend.runtime.PolicyOptimizer;
import dev.javelin.trainer.TrainerState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The files of one trainer checkpoint: {@code config.json} + {@code model.safetensors} (HF names,
 * f32 so that resume is exact), {@code optimizer.safetensors} (AdamW moments {@code m.*}, {@code
 * v.*}) and {@code trainer_state.json} (optimizer step count and the driver's extra state). The LR
 * schedule is a pure function of the step count, so the count is its whole state.
 *
 * <p>A gang of {@code n} ranks writes the model and moments in {@code n} parts at once, each rank
 * its own ({@link CheckpointShard}): {@code model-0000r-of-0000n.safetensors} with HF's {@code
 * model.safetensors.index.json}, and {@code optimizer-0000r-of-0000n.safetensors}. Loading reads
 * either form, so a gang's checkpoint resumes in one process and the other way round.
 */
final class CheckpointFiles {
  static final String OPTIMIZER_STEM = "optimizer";
  static final String OPTIMIZER = OPTIMIZER_STEM + ".safetensors";
  private static final Pattern PART =
      Pattern.compile(OPTIMIZER_STEM + "-(\\d{5})-of-(\\d{5})\\.safetensors");
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
      Map<String, String> extra,
      CheckpointShard shard) {
    // model.safetensors is the policy as it runs (adapters merged), so the directory stays a
    // whole HF model; the adapters alone go to lora_adapter/ in PEFT's format.
    model.mergedCheckpoint().save(dir, modelType, StorageType.F32, shard);
    SafetensorsWriter.write(
        dir.resolve(shard.fileName(OPTIMIZER_STEM)),
        shard.part(optimizer.optimizerState()),
        StorageType.F32,
        Map.of("optimizer_steps", Long.toString(optimizer.stepCount())));
    if (!shard.first()) {
      return; // the adapters and the state are written once
    }
    if (model.lora().enabled()) {
      new PeftAdapter(model.lora(), model.adapterTensors()).save(dir.resolve(LORA_ADAPTER), null);
    }
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
    Map<String, Tensor> saved = HfCheckpoint.read(dir); // model.safetensors or its shards
    Map<String, Tensor.F32> loaded = new LinkedHashMap<>();
    for (WeightSpec spec : WeightSpec.layout(model.config())) {
      String name = spec.name();
      if (!(saved.get(name) instanceof Tensor.F32 w)) {
        throw new IllegalArgumentException(
            dir + ": the checkpoint lacks f32 weight '" + name + "'");
      }
      loaded.put(name, w);
    }
    model.loadWeights(loaded);
    optimizer.restore(readMoments(dir), state.optimizerSteps());
    return state;
  }

  private static Map<String, Tensor> readMoments(Path dir) {
    Map<String, Tensor> moments = new LinkedHashMap<>();
    for (Path file : momentFiles(dir)) {
      try (SafetensorsFile f = SafetensorsFile.open(file)) {
        for (String name : f.tensors().keySet()) {
          moments.put(name, f.read(name));
        }
      }
    }
    return moments;
  }

  /** {@code optimizer.safetensors}, or every part a gang wrote (all of them, or an error). */
  private static List<Path> momentFiles(Path dir) {
    Path whole = dir.resolve(OPTIMIZER);
    int ranks = 0;
    try (DirectoryStream<Path> parts = Files.newDirectoryStream(dir, OPTIMIZER_STEM + "-*")) {
      for (Path p : parts) {
        Matcher m = PART.matcher(p.getFileName().toString());
        ranks = m.matches() ? Math.max(ranks, Integer.parseInt(m.group(2))) : ranks;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
    if (Files.isRegularFile(whole) || ranks == 0) {
      return List.of(whole); // a missing file is the reader's error, naming it
    }
    List<Path> files = new ArrayList<>();
    for (int r = 0; r < ranks; r++) {
      Path p = dir.resolve(CheckpointShard.fileName(OPTIMIZER_STEM, r, ranks));
      if (!Files.isRegularFile(p)) {
        throw new IllegalArgumentException(
            dir + ": " + p.getFileName() + " is missing, a part of the optimizer state");
      }
      files.add(p);
    }
    return files;
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
