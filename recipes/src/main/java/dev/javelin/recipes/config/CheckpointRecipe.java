package dev.javelin.recipes.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The recipe a checkpoint records (its {@code recipe.yaml}), read as data. A checkpoint can come
 * from anyone and its manifest is a CRC that anyone can recompute, so what it names to run (the
 * reward code of {@code custom_reward_function.path}) and where it would write ({@code
 * trainer.default_local_dir}, {@code sft.output_dir}, a warm-up recipe) are not taken from it: the
 * outputs go next to the checkpoint, and the reward code runs only when the command line names it.
 */
public final class CheckpointRecipe {
  /** Keys that belong to the reward code a checkpoint names; dropped together with the path. */
  private static final List<KeySpec> REWARD_CODE =
      List.of(
          RecipeConfig.REWARD_PATH,
          RecipeConfig.REWARD_NAME,
          RecipeConfig.REWARD_CLASS,
          RecipeConfig.REWARD_KWARGS);

  /** Keys naming places a run writes to. */
  private static final List<KeySpec> PLACES =
      List.of(TrainerSection.DEFAULT_LOCAL_DIR, RecipeConfig.SFT_OUTPUT_DIR);

  private CheckpointRecipe() {}

  /**
   * A checkpoint's recipe and what was left out of it.
   *
   * @param recipe the recipe to evaluate with
   * @param notes one line per thing the checkpoint named and was not used, with how to opt in
   */
  public record Loaded(RecipeConfig recipe, List<String> notes) {
    public Loaded {
      notes = List.copyOf(notes);
    }
  }

  /**
   * Loads {@code recipeFile} for evaluating the model in {@code checkpoint}, writing into {@code
   * runDir}; {@code overrides} (the user's command line) win over everything and may put back what
   * the checkpoint named.
   */
  public static Loaded load(Path recipeFile, Path checkpoint, Path runDir, List<String> overrides) {
    RecipeLoader loader = new RecipeLoader(RecipeSchema.schema());
    Settings recorded = loader.load(recipeFile, List.of());
    Map<String, Object> kept = new TreeMap<>(recorded.asMap());
    List<String> notes = new ArrayList<>();
    Object code = kept.get(RecipeConfig.REWARD_PATH.name());
    if (code != null && !overrides(overrides, RecipeConfig.REWARD_PATH)) {
      StringBuilder optIn = new StringBuilder();
      for (KeySpec k : REWARD_CODE) {
        Object v = kept.remove(k.name());
        if (v != null && !(v instanceof Map<?, ?>)) {
          optIn.append(' ').append(k.name()).append('=').append(v);
        }
      }
      notes.add(
          "the checkpoint's recipe names reward code "
              + code
              + "; it is not run (rewards by data source instead). To run it, add"
              + optIn);
    }
    for (KeySpec k : PLACES) {
      kept.remove(k.name());
    }
    kept.remove(ModelSection.WARMUP_RECIPE.name());
    List<String> all = new ArrayList<>();
    all.add(TrainerSection.DEFAULT_LOCAL_DIR.name() + "=" + runDir);
    all.add(ModelSection.PATH.name() + "=" + checkpoint);
    all.addAll(overrides);
    String yaml = Recipes.toYaml(new Settings(recorded.schema(), kept));
    return new Loaded(
        RecipeConfig.from(loader.loadString(yaml, recipeFile.toString(), all)), notes);
  }

  /** Whether the command line sets {@code key} (VeRL/Hydra spelling, with or without +). */
  private static boolean overrides(List<String> overrides, KeySpec key) {
    for (String o : overrides) {
      String k = o.replaceFirst("^\\+{1,2}", "");
      if (k.startsWith(key.name() + "=")) {
        return true;
      }
    }
    return false;
  }
}
