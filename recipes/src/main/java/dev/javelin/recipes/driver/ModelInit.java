package dev.javelin.recipes.driver;

import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.checkpoint.ModelConfigJson;
import dev.javelin.backend.checkpoint.gguf.GgufException;
import dev.javelin.backend.model.Architectures;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.ModelOverrideKeys;
import dev.javelin.recipes.config.ModelSection;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.task.TaskLoader;
import dev.javelin.trainer.engine.PolicySnapshots;
import dev.javelin.weightsync.WeightSnapshot;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * The policy's starting point: the checkpoint at {@code actor_rollout_ref.model.path}, or a random
 * model of the {@code init.*} shape sized to the tokenizer's vocabulary.
 */
public final class ModelInit {
  private static final String PATH_KEY = "recipe key '" + ModelSection.PATH.name() + "': ";

  private ModelInit() {}

  /** The model's shape. */
  public static ModelConfig config(RecipeConfig recipe) {
    if (recipe.model().path() != null) {
      Path checkpoint = modelDir(recipe);
      modelType(recipe);
      return overrides(recipe).apply(checked(checkpoint, () -> ModelCheckpoint.config(checkpoint)));
    }
    int vocab = TaskLoader.tokenizer(recipe).vocabSize();
    return overrides(recipe)
        .apply(recipe.model().init().toConfig(vocab, Architectures.of(recipe.model().modelType())));
  }

  /** {@code actor_rollout_ref.model.override_config}'s fields that change the model config. */
  private static ModelOverrideKeys.Overrides overrides(RecipeConfig recipe) {
    return ModelOverrideKeys.from(recipe.settings());
  }

  /** config.json text of the model, for samplers that wait for their first weights. */
  public static String configJson(RecipeConfig recipe) {
    return ModelConfigJson.write(config(recipe), modelType(recipe));
  }

  /**
   * The architecture: the checkpoint's own (config.json {@code model_type} or GGUF {@code
   * general.architecture}) when there is one, refusing a recipe {@code model_type} that contradicts
   * it; otherwise the recipe's.
   */
  public static String modelType(RecipeConfig recipe) {
    if (recipe.model().path() == null) {
      return recipe.model().modelType();
    }
    Path checkpoint = modelDir(recipe);
    String actual = checked(checkpoint, () -> ModelCheckpoint.architecture(checkpoint));
    String stated = recipe.model().modelType();
    if (recipe.model().modelTypeStated() && !stated.equals(actual)) {
      throw new ConfigException(
          "recipe key '"
              + ModelSection.MODEL_TYPE.name()
              + "' is '"
              + stated
              + "' but checkpoint "
              + checkpoint
              + " is '"
              + actual
              + "': drop the key or make it '"
              + actual
              + "'");
    }
    return actual;
  }

  /** The starting weights. */
  public static ModelCheckpoint initial(RecipeConfig recipe) {
    if (recipe.model().path() != null) {
      Path checkpoint = modelDir(recipe);
      modelType(recipe);
      ModelCheckpoint loaded =
          requireFinite(checkpoint, checked(checkpoint, () -> ModelCheckpoint.load(checkpoint)));
      return new ModelCheckpoint(overrides(recipe).apply(loaded.config()), loaded.weights());
    }
    return ModelCheckpoint.random(
        config(recipe), recipe.model().initSeed(), recipe.model().initStd());
  }

  /**
   * Weights with NaN or infinity (a diverged or damaged checkpoint) stop the run at load with one
   * line naming the tensor, instead of failing later in a sampler that cannot decode them.
   */
  static ModelCheckpoint requireFinite(Path checkpoint, ModelCheckpoint weights) {
    for (var e : weights.weights().entrySet()) {
      float[] data = e.getValue().data();
      int bad = 0;
      for (float v : data) {
        bad += Float.isFinite(v) ? 0 : 1;
      }
      if (bad > 0) {
        throw new ConfigException(
            PATH_KEY
                + checkpoint
                + " has non-finite weights ("
                + bad
                + " NaN or infinite values in "
                + e.getKey()
                + "): the model diverged or the file is damaged; use an earlier checkpoint");
      }
    }
    return weights;
  }

  /**
   * The starting weights as the version-0 snapshot samplers load, in the recipe's wire type: what a
   * trainer would publish before its first step, without building one (eval).
   */
  public static WeightSnapshot initialSnapshot(RecipeConfig recipe) {
    return PolicySnapshots.of(initial(recipe), 0, recipe.rollout().weightDtype());
  }

  /**
   * A malformed GGUF or config.json is bad user input: one line naming the key and the file, no
   * stack trace. (A config.json with zero heads divides by zero while deriving head_dim.)
   */
  private static <T> T checked(Path checkpoint, Supplier<T> read) {
    try {
      return read.get();
    } catch (GgufException e) {
      throw new ConfigException(PATH_KEY + e.getMessage());
    } catch (IllegalArgumentException | UncheckedIOException | ArithmeticException e) {
      String file =
          ModelCheckpoint.isGguf(checkpoint) ? checkpoint.toString() : checkpoint + "/config.json";
      String why = e.getMessage() == null ? e.toString() : e.getMessage();
      if (e.getCause() != null && e.getCause().getMessage() != null) {
        why += " (" + e.getCause().getMessage().lines().findFirst().orElse("") + ")";
      }
      throw new ConfigException(PATH_KEY + (why.contains(file) ? why : file + ": " + why), e);
    }
  }

  private static Path modelDir(RecipeConfig recipe) {
    Path dir = Path.of(recipe.model().path());
    if (ModelCheckpoint.isGguf(dir)) {
      if (!Files.isRegularFile(dir)) {
        throw new ConfigException(PATH_KEY + "no GGUF file " + dir.toAbsolutePath());
      }
      return dir;
    }
    if (!Files.isRegularFile(dir.resolve("config.json"))) {
      throw new ConfigException(
          PATH_KEY
              + "no config.json in "
              + dir.toAbsolutePath()
              + (recipe.model().warmupRecipe() != null
                  ? " (run its warm-up first: javelin sft " + recipe.model().warmupRecipe() + ")"
                  : ""));
    }
    return dir;
  }
}
