package dev.javelin.recipes.driver;

import dev.javelin.backend.checkpoint.safetensors.SafetensorsFile;
import dev.javelin.backend.checkpoint.safetensors.TensorInfo;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.ModelSection;
import dev.javelin.recipes.config.RecipeConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Checks a Hugging Face checkpoint directory on the driver before any worker loads it: config.json
 * reads as a model, the safetensors files open (headers and bounds only, no tensor data), and every
 * weight the config asks for is there with the config's shape. A broken or mismatched checkpoint is
 * then one line naming the file instead of a failed actor.
 */
public final class WeightFiles {
  private static final String KEY = "recipe key '" + ModelSection.PATH.name() + "': ";

  private WeightFiles() {}

  /** Checks {@code actor_rollout_ref.model.path} when it names a checkpoint directory. */
  public static void check(RecipeConfig recipe) {
    String modelPath = recipe.model().path();
    if (modelPath == null || !Files.isDirectory(Path.of(modelPath))) {
      return; // no model (random init) or a GGUF file, which its own reader checks
    }
    Path dir = Path.of(modelPath);
    ModelConfig config = ModelInit.config(recipe);
    Map<String, Located> tensors = headers(dir);
    ModelConfig c = config.withQkvBiasAsIn(tensors.keySet());
    refuseExtraLayers(dir, c, tensors);
    for (WeightSpec s : WeightSpec.layout(c)) {
      Located t = tensors.get(s.name());
      if (t == null) {
        throw new ConfigException(
            KEY
                + dir.resolve("config.json")
                + " contradicts the weights: "
                + c.layers()
                + " layers need weight '"
                + s.name()
                + "', which no safetensors file in "
                + dir
                + " holds; use the config.json that came with the weights");
      }
      if (!t.info().shape().equals(s.shape())) {
        throw new ConfigException(
            KEY
                + dir.resolve("config.json")
                + " contradicts the weights: "
                + t.file()
                + " has '"
                + s.name()
                + "' of shape "
                + t.info().shape()
                + ", config.json needs "
                + s.shape()
                + "; use the config.json that came with the weights");
      }
    }
  }

  /** Weights of layers past the config's count would be ignored silently: a contradiction too. */
  private static void refuseExtraLayers(Path dir, ModelConfig c, Map<String, Located> tensors) {
    String extra = WeightSpec.layer(c.layers(), "");
    tensors.keySet().stream()
        .filter(name -> name.startsWith(extra))
        .findFirst()
        .ifPresent(
            name -> {
              throw new ConfigException(
                  KEY
                      + dir.resolve("config.json")
                      + " contradicts the weights: it says "
                      + c.layers()
                      + " layers but "
                      + tensors.get(name).file()
                      + " holds '"
                      + name
                      + "'; use the config.json that came with the weights");
            });
  }

  /** A tensor header and the file it is in. */
  private record Located(Path file, TensorInfo info) {}

  /** The tensor headers of every {@code *.safetensors} file of {@code dir} (sharded or not). */
  private static Map<String, Located> headers(Path dir) {
    List<Path> files;
    try (Stream<Path> all = Files.list(dir)) {
      files = all.filter(p -> p.toString().endsWith(".safetensors")).sorted().toList();
    } catch (IOException e) {
      throw new ConfigException(KEY + "cannot read " + dir + " (" + e + ")", e);
    }
    List<Path> weights = files.stream().filter(p -> !isOptimizerState(p)).toList();
    if (weights.isEmpty()) {
      throw new ConfigException(
          KEY
              + "no model.safetensors in "
              + dir
              + "; a checkpoint directory holds config.json and its safetensors weights");
    }
    Map<String, Located> out = new HashMap<>();
    for (Path f : weights) {
      try (SafetensorsFile st = SafetensorsFile.open(f)) {
        st.tensors().forEach((name, info) -> out.put(name, new Located(f, info)));
      }
    }
    return out;
  }

  /** The trainer's optimizer state beside the weights in a Javelin checkpoint. */
  private static boolean isOptimizerState(Path file) {
    return file.getFileName().toString().startsWith("optimizer");
  }
}
