package dev.javelin.recipes.api;

import dev.javelin.recipes.config.ModelSection;

/**
 * The model section of a {@link RunSpec} ({@code actor_rollout_ref.model.*}): a checkpoint to start
 * from, or a small random-initialised model for tests and examples.
 */
public final class ModelSpec {
  private final SpecValues values;

  ModelSpec(SpecValues values) {
    this.values = values;
  }

  /** A Hugging Face model directory or GGUF file to start from. */
  public ModelSpec path(String path) {
    values.put(ModelSection.PATH, path);
    values.put(ModelSection.WARMUP_RECIPE, ""); // a path given in code is used as it is
    return this;
  }

  /** The tokenizer: {@code char}, or a folder or file with an HF tokenizer.json. */
  public ModelSpec tokenizer(String tokenizerPath) {
    values.put(ModelSection.TOKENIZER_PATH, tokenizerPath);
    return this;
  }

  /**
   * No checkpoint: a randomly initialised decoder of these sizes (tests, examples, smoke runs).
   *
   * @param hidden hidden width
   * @param layers decoder layers
   * @param heads attention heads (also the key/value heads)
   * @param maxPositions longest prompt plus response the model is built for
   */
  public ModelSpec randomInit(int hidden, int layers, int heads, int maxPositions) {
    values.put(ModelSection.PATH, "");
    values.put(ModelSection.WARMUP_RECIPE, "");
    values.put(ModelSection.INIT_HIDDEN, hidden);
    values.put(ModelSection.INIT_INTERMEDIATE, 2 * hidden);
    values.put(ModelSection.INIT_LAYERS, layers);
    values.put(ModelSection.INIT_HEADS, heads);
    values.put(ModelSection.INIT_KV_HEADS, heads);
    values.put(ModelSection.INIT_MAX_POSITIONS, maxPositions);
    return this;
  }

  /** Recomputes activations in the backward pass: less memory, more time. */
  public ModelSpec gradientCheckpointing(boolean enabled) {
    values.put(ModelSection.ENABLE_GRADIENT_CHECKPOINTING, enabled);
    return this;
  }
}
