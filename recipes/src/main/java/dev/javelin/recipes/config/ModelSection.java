package dev.javelin.recipes.config;

import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.model.Architecture;
import dev.javelin.backend.model.Architectures;
import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.runtime.PolicyOptimizer;
import java.util.Objects;

/**
 * {@code actor_rollout_ref.model.*}: the policy's starting weights and tokenizer.
 *
 * @param path HF checkpoint dir; null means a random model shaped by {@code init}
 * @param tokenizerPath tokenizer dir/file or {@code char}; null means the model's dir, else char
 * @param warmupRecipe a recipe (usually SFT) run first when {@code path} does not exist yet
 * @param modelType an {@link Architectures} model type, written to checkpoints' config.json
 * @param modelTypeStated the recipe states {@code model_type} (a loaded checkpoint must agree)
 * @param init the random model's shape ({@code init.*}); vocab comes from the tokenizer
 * @param initSeed {@code init.seed}
 * @param initStd {@code init.std}
 * @param gradientCheckpointing {@code enable_gradient_checkpointing} (VeRL's key): the trainer
 *     recomputes each decoder block in the backward pass ({@link Remat#BLOCKS}) instead of keeping
 *     its intermediates
 */
public record ModelSection(
    String path,
    String tokenizerPath,
    String warmupRecipe,
    String modelType,
    boolean modelTypeStated,
    InitShape init,
    long initSeed,
    double initStd,
    boolean gradientCheckpointing) {
  static final KeySet KEYS = new KeySet("actor_rollout_ref.model.");
  public static final KeySpec ENABLE_GRADIENT_CHECKPOINTING =
      KEYS.of(
          "enable_gradient_checkpointing",
          KeyType.BOOL,
          false,
          "recompute each block in the backward pass (less memory, ~1/3 more compute)");
  public static final KeySpec PATH =
      KEYS.optional("path", KeyType.STRING, "HF checkpoint dir (config.json + safetensors)");
  public static final KeySpec TOKENIZER_PATH =
      KEYS.optional("tokenizer_path", KeyType.STRING, "tokenizer dir/file, or 'char'");
  public static final KeySpec WARMUP_RECIPE =
      KEYS.optional("warmup_recipe", KeyType.STRING, "recipe run first when path is missing");
  public static final KeySpec MODEL_TYPE =
      KEYS.of(
          "model_type",
          KeyType.oneOf(Architectures.modelTypes().toArray(new String[0])),
          LlamaFamily.LLAMA.modelType(),
          "config.json type");
  public static final KeySpec INIT_HIDDEN =
      KEYS.of("init.hidden", KeyType.INT, 128, "random init: width d");
  public static final KeySpec INIT_INTERMEDIATE =
      KEYS.of("init.intermediate", KeyType.INT, 512, "random init: MLP width");
  public static final KeySpec INIT_LAYERS =
      KEYS.of("init.layers", KeyType.INT, 4, "random init: blocks");
  public static final KeySpec INIT_HEADS =
      KEYS.of("init.heads", KeyType.INT, 4, "random init: query heads");
  public static final KeySpec INIT_KV_HEADS =
      KEYS.of("init.kv_heads", KeyType.INT, 4, "random init: key/value heads");
  public static final KeySpec INIT_MAX_POSITIONS =
      KEYS.of("init.max_positions", KeyType.INT, 64, "random init: context length");
  public static final KeySpec INIT_ROPE_THETA =
      KEYS.of("init.rope_theta", KeyType.DOUBLE, 10_000.0, "random init: RoPE base");
  public static final KeySpec INIT_TIE_WORD_EMBEDDINGS =
      KEYS.of("init.tie_word_embeddings", KeyType.BOOL, true, "random init: tied LM head");
  public static final KeySpec INIT_SEED =
      KEYS.of("init.seed", KeyType.LONG, 0L, "random init: seed");
  public static final KeySpec INIT_STD =
      KEYS.of("init.std", KeyType.DOUBLE, 0.02, "random init: weight std");

  /** Validates. */
  public ModelSection {
    Objects.requireNonNull(modelType, "modelType");
    Objects.requireNonNull(init, "init");
    Checks.require(initStd > 0, INIT_STD.name(), "must be > 0");
    Checks.require(
        warmupRecipe == null || path != null,
        WARMUP_RECIPE.name(),
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
      Checks.positive(INIT_HIDDEN.name(), hidden);
      Checks.positive(INIT_HEADS.name(), heads);
      Checks.require(
          hidden % heads == 0, INIT_HEADS.name(), "must divide init.hidden (" + hidden + ")");
      int h = heads;
      int d = hidden;
      Checks.build(
          INIT_HIDDEN.name().replace("hidden", "*"),
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
                  maxPositions,
                  LlamaFamily.LLAMA));
    }

    /**
     * The full config of {@code family} for a tokenizer of {@code vocab} ids; q/k/v biases as the
     * family implies them (qwen2 yes, llama no), so config.json round-trips to the same tensors.
     */
    public ModelConfig toConfig(int vocab, Architecture family) {
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
          family.impliedQkvBias(),
          maxPositions,
          family);
    }
  }

  static ModelSection from(Settings s) {
    return new ModelSection(
        s.optNonBlank(PATH).orElse(null),
        s.optNonBlank(TOKENIZER_PATH).orElse(null),
        s.optNonBlank(WARMUP_RECIPE).orElse(null),
        s.getString(MODEL_TYPE),
        s.isStated(MODEL_TYPE),
        new InitShape(
            s.getInt(INIT_HIDDEN),
            s.getInt(INIT_INTERMEDIATE),
            s.getInt(INIT_LAYERS),
            s.getInt(INIT_HEADS),
            s.getInt(INIT_KV_HEADS),
            s.getInt(INIT_MAX_POSITIONS),
            s.getDouble(INIT_ROPE_THETA),
            s.getBool(INIT_TIE_WORD_EMBEDDINGS)),
        s.getLong(INIT_SEED),
        s.getDouble(INIT_STD),
        s.getBool(ENABLE_GRADIENT_CHECKPOINTING));
  }

  /**
   * What the trainer keeps for the backward pass: per-block recomputation when the recipe asks for
   * gradient checkpointing, else the engine's default ({@code -Djavelin.remat}).
   */
  public Remat remat() {
    return gradientCheckpointing ? Remat.BLOCKS : PolicyOptimizer.defaultRemat();
  }
}
