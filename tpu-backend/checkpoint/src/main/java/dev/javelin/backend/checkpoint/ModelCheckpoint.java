package dev.javelin.backend.checkpoint;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.gguf.GgufFile;
import dev.javelin.backend.checkpoint.gguf.GgufModel;
import dev.javelin.backend.checkpoint.safetensors.CheckpointShard;
import dev.javelin.backend.checkpoint.safetensors.HfCheckpoint;
import dev.javelin.backend.checkpoint.safetensors.StorageType;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.WeightSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/**
 * A model's config and weights as host tensors, by Hugging Face name in {@link WeightSpec} order.
 * Loads from and saves to a Hugging Face checkpoint directory ({@code config.json} + safetensors).
 */
public record ModelCheckpoint(ModelConfig config, Map<String, Tensor.F32> weights) {

  public ModelCheckpoint {
    weights = Map.copyOf(weights);
    WeightSpec.check(config, weights);
  }

  /**
   * Random weights for benchmarks and tests: matrices ~ N(0, std²) as in HF's initializer, norm
   * scales 1, biases 0.
   */
  public static ModelCheckpoint random(ModelConfig config, long seed, double std) {
    Random rng = new Random(seed);
    Map<String, Tensor.F32> w = new LinkedHashMap<>();
    for (WeightSpec s : WeightSpec.layout(config)) {
      float[] a = new float[s.shape().intSize()];
      if (s.name().endsWith("norm.weight")) {
        Arrays.fill(a, 1f);
      } else if (!s.name().endsWith(".bias")) {
        for (int i = 0; i < a.length; i++) {
          a[i] = (float) (std * rng.nextGaussian());
        }
      }
      w.put(s.name(), new Tensor.F32(s.shape(), a));
    }
    return new ModelCheckpoint(config, w);
  }

  /** Weights in layout order. */
  public Map<String, Tensor.F32> ordered() {
    Map<String, Tensor.F32> out = new LinkedHashMap<>();
    for (WeightSpec s : WeightSpec.layout(config)) {
      out.put(s.name(), weights.get(s.name()));
    }
    return out;
  }

  /**
   * Loads a checkpoint: a llama.cpp {@code .gguf} file, or a Hugging Face directory with {@code
   * config.json} and its safetensors weights (single file or sharded). Tensors the model does not
   * use (a tied checkpoint's {@code lm_head.weight}, rotary buffers) are ignored; q/k/v biases are
   * used when the checkpoint has them; weights it stores in pieces (one matrix per expert) are put
   * together ({@link dev.javelin.backend.model.Architecture#assemble}).
   */
  public static ModelCheckpoint load(Path path) {
    if (isGguf(path)) {
      return GgufModel.load(path);
    }
    ModelConfig declared = HfConfigJson.read(configJson(path));
    Map<String, Tensor> all = HfCheckpoint.read(path);
    ModelConfig c = declared.withQkvBiasAsIn(all.keySet());
    Map<String, Tensor.F32> w = new LinkedHashMap<>();
    for (WeightSpec s : WeightSpec.layout(c)) {
      Tensor t = all.get(s.name());
      if (t == null) {
        t = c.architecture().assemble(s.name(), n -> all.get(n) instanceof Tensor.F32 f ? f : null);
      }
      if (t == null) {
        throw new IllegalArgumentException(path + ": checkpoint lacks weight '" + s.name() + "'");
      }
      if (!(t instanceof Tensor.F32 f)) {
        throw new IllegalArgumentException(path + ": weight '" + s.name() + "' is not floating");
      }
      w.put(s.name(), f);
    }
    return new ModelCheckpoint(c, w);
  }

  /** The model shape of the checkpoint at {@code path} (GGUF file or HF directory). */
  public static ModelConfig config(Path path) {
    if (isGguf(path)) {
      try (GgufFile f = GgufFile.open(path)) {
        return GgufModel.config(f);
      }
    }
    return HfConfigJson.read(configJson(path));
  }

  /**
   * The architecture the checkpoint declares: GGUF {@code general.architecture} or config.json
   * {@code model_type}, as the {@code model_type} of its {@link
   * dev.javelin.backend.model.Architecture}.
   */
  public static String architecture(Path path) {
    if (isGguf(path)) {
      try (GgufFile f = GgufFile.open(path)) {
        return GgufModel.architecture(f).modelType();
      }
    }
    return HfConfigJson.modelType(configJson(path));
  }

  /** A path naming a GGUF file rather than a Hugging Face directory. */
  public static boolean isGguf(Path path) {
    return path.getFileName() != null && path.getFileName().toString().endsWith(".gguf");
  }

  private static Path configJson(Path dir) {
    Path config = dir.resolve("config.json");
    if (!Files.isRegularFile(config)) {
      throw new IllegalArgumentException(
          "no config.json in checkpoint directory " + dir + " (or pass a .gguf file)");
    }
    return config;
  }

  /**
   * Writes {@code config.json} (of {@code modelType}, a name of this model's block: {@link
   * ModelConfig#relabelled}) and model.safetensors.
   */
  public void save(Path dir, String modelType, StorageType floatType) {
    save(dir, modelType, floatType, CheckpointShard.WHOLE);
  }

  /**
   * Writes {@code shard}'s part of the weights ({@link HfCheckpoint#write(Path, Map, StorageType,
   * CheckpointShard)}); the first rank also writes {@code config.json}.
   */
  public void save(Path dir, String modelType, StorageType floatType, CheckpointShard shard) {
    if (shard.first()) {
      writeConfig(dir, modelType);
    }
    HfCheckpoint.write(dir, config.architecture().savedForm(config, ordered()), floatType, shard);
  }

  private void writeConfig(Path dir, String modelType) {
    try {
      Files.createDirectories(dir);
      Path tmp = dir.resolve("config.json.tmp");
      new ObjectMapper()
          .writerWithDefaultPrettyPrinter()
          .writeValue(tmp.toFile(), HfConfigJson.write(config, modelType));
      Files.move(
          tmp,
          dir.resolve("config.json"),
          StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write config.json to " + dir, e);
    }
  }
}
