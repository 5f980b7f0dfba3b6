package dev.javelin.recipes.config;

import dev.javelin.backend.model.ModelConfig;
import java.util.Objects;

/**
 * {@code actor_rollout_ref.model.*}: the policy's starting weights and tokenizer.
 *
 * @param path HF checkpoint dir; null means a random model shaped by {@code init}
 * @param tokenizerPath tokenizer dir/file or {@code char}; null means the model's dir, else char
 * @param warmupRecipe a recipe (usually SFT) run first when {@code path} does not exist yet
 * @param modelType {@code llama} or {@code qwen2}, written to checkpoints' config.json
 * @param modelTypeStated the recipe states {@code model_type} (a loaded checkpoint must agree)
 * @param init the random model's shape ({@code init.*}); vocab comes from the tokenizer
 * @param initSeed {@code init.seed}
 * @param initStd {@code init.std}
 */
public record ModelSection(
    String path,
    String tokenizerPath,
    String warmupRecipe,
    String modelType,
    boolean modelTypeStated,
    InitShape init,
    long initSeed,
    double initStd) {

  /** Validates. */
  public ModelSection {
    Objects.requireNonNull(modelType, "modelType");
    Objects.requireNonNull(init, "init");
    Checks.require(initStd > 0, RecipeSchema.MODEL + "init.std", "must be > 0");
    Checks.require(
        warmupRecipe == null || path != null,
        RecipeSchema.MODEL + "warmup_recipe",
        "needs actor_rollout_ref.model.path (the checkpoint the warm-up writes)");
  }

  /**
   * The random model's shape, without the vocabulary.
   *
   * @param hidden d
   * @param intermediate MLP width
   * @param layers blocks
   * @param heads query heads
   * @param kvHeads key/value heads
   * @param maxPositions context length
   * @param ropeTheta RoPE base
   * @param tieWordEmbeddings tied LM head
   */
  public record InitShape(
      int hidden,
      int intermediate,
      int layers,
      int heads,
      int kvHeads,
      int maxPositions,
      double ropeTheta,
      boolean tieWordEmbeddings) {
    /** Validates the shape by building a config with a placeholder vocabulary. */
    public InitShape {
      String p = RecipeSchema.MODEL + "init.";
      Checks.positive(p + "hidden", hidden);
      Checks.positive(p + "heads", heads);
      Checks.require(hidden % heads == 0, p + "heads", "must divide init.hidden (" + hidden + ")");
      int h = heads;
      int d = hidden;
      Checks.build(
          p + "*",
          () ->
              new ModelConfig(
                  2,
                  d,
                  intermediate,
                  layers,
                  h,
                  kvHeads,
                  d / h,
                  ropeTheta,
                  1e-6,
                  tieWordEmbeddings,
                  false,
                  maxPositions));
    }

    /**
     * The full config for a tokenizer of {@code vocab} ids; {@code qkvBias} as the model type has
     * it (qwen2 yes, llama no), so config.json round-trips to the same tensors.
     */
    public ModelConfig toConfig(int vocab, boolean qkvBias) {
      return new ModelConfig(
          vocab,
          hidden,
          intermediate,
          layers,
          heads,
          kvHeads,
          hidden / heads,
          ropeTheta,
          1e-6,
          tieWordEmbeddings,
          qkvBias,
          maxPositions);
    }
  }

  static ModelSection from(Settings s) {
    String p = RecipeSchema.MODEL;
    return new ModelSection(
        blankToNull(s.optString(p + "path").orElse(null)),
        blankToNull(s.optString(p + "tokenizer_path").orElse(null)),
        blankToNull(s.optString(p + "warmup_recipe").orElse(null)),
        s.getString(p + "model_type"),
        s.isSet(p + "model_type"),
        new InitShape(
            s.getInt(p + "init.hidden"),
            s.getInt(p + "init.intermediate"),
            s.getInt(p + "init.layers"),
            s.getInt(p + "init.heads"),
            s.getInt(p + "init.kv_heads"),
            s.getInt(p + "init.max_positions"),
            s.getDouble(p + "init.rope_theta"),
            s.getBool(p + "init.tie_word_embeddings")),
        s.getLong(p + "init.seed"),
        s.getDouble(p + "init.std"));
  }

  /** An empty override ({@code key=}) clears an optional path. */
  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
