package dev.javelin.recipes.driver;

import dev.javelin.backend.checkpoint.HfConfigJson;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.checkpoint.ModelConfigJson;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.task.TaskLoader;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The policy's starting point: the checkpoint at {@code actor_rollout_ref.model.path}, or a random
 * model of the {@code init.*} shape sized to the tokenizer's vocabulary.
 */
public final class ModelInit {
  private ModelInit() {}

  /** The model's shape. */
  public static ModelConfig config(RecipeConfig recipe) {
    if (recipe.model().path() != null) {
      Path json = modelDir(recipe).resolve("config.json");
      return HfConfigJson.read(json);
    }
    int vocab = TaskLoader.tokenizer(recipe).vocabSize();
    return recipe.model().init().toConfig(vocab, recipe.model().modelType().equals("qwen2"));
  }

  /** config.json text of the model, for samplers that wait for their first weights. */
  public static String configJson(RecipeConfig recipe) {
    return ModelConfigJson.write(config(recipe), recipe.model().modelType());
  }

  /** The starting weights. */
  public static ModelCheckpoint initial(RecipeConfig recipe) {
    if (recipe.model().path() != null) {
      return ModelCheckpoint.load(modelDir(recipe));
    }
    return ModelCheckpoint.random(
        config(recipe), recipe.model().initSeed(), recipe.model().initStd());
  }

  private static Path modelDir(RecipeConfig recipe) {
    Path dir = Path.of(recipe.model().path());
    if (!Files.isRegularFile(dir.resolve("config.json"))) {
      throw new ConfigException(
          "recipe key 'actor_rollout_ref.model.path': no config.json in "
              + dir.toAbsolutePath()
              + (recipe.model().warmupRecipe() != null
                  ? " (run its warm-up first: javelin sft " + recipe.model().warmupRecipe() + ")"
                  : ""));
    }
    return dir;
  }
}
