package dev.javelin.backend.model;

import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Shape of a decoder: embedding, {@code layers} blocks of the {@link Architecture}'s composition
 * (norms, grouped-query attention with RoPE, feed-forward), a final RMSNorm and the LM head.
 *
 * @param vocabSize V
 * @param hidden model width D
 * @param intermediate MLP width F
 * @param layers number of blocks L
 * @param heads query heads H
 * @param kvHeads key/value heads Hkv (H is a multiple: grouped-query attention)
 * @param headDim per-head width Dh (usually D / H)
 * @param ropeTheta rotary base θ
 * @param rmsNormEps ε of RMSNorm
 * @param tieWordEmbeddings LM head reuses the embedding table
 * @param qkvBias q/k/v projections have biases (Qwen2)
 * @param maxPositions longest sequence (prompt + response) the KV cache holds
 * @param architecture the model family: block composition, weight names, checkpoint names
 */
public record ModelConfig(
    int vocabSize,
    int hidden,
    int intermediate,
    int layers,
    int heads,
    int kvHeads,
    int headDim,
    double ropeTheta,
    double rmsNormEps,
    boolean tieWordEmbeddings,
    boolean qkvBias,
    int maxPositions,
    Architecture architecture) {

  public ModelConfig {
    Objects.requireNonNull(architecture, "architecture");
    positive("vocabSize", vocabSize);
    positive("hidden", hidden);
    positive("intermediate", intermediate);
    positive("layers", layers);
    positive("heads", heads);
    positive("kvHeads", kvHeads);
    positive("headDim", headDim);
    positive("maxPositions", maxPositions);
    if (heads % kvHeads != 0) {
      throw new IllegalArgumentException(
          "heads (" + heads + ") must be a multiple of kvHeads (" + kvHeads + ")");
    }
    if (headDim % 2 != 0) {
      throw new IllegalArgumentException("headDim must be even for rotary embeddings: " + headDim);
    }
    if (!(ropeTheta > 0)) {
      throw new IllegalArgumentException("ropeTheta must be > 0, got " + ropeTheta);
    }
    if (!(rmsNormEps > 0)) {
      throw new IllegalArgumentException("rmsNormEps must be > 0, got " + rmsNormEps);
    }
  }

  private static void positive(String field, int v) {
    if (v <= 0) {
      throw new IllegalArgumentException(field + " must be > 0, got " + v);
    }
  }

  /** Query heads per key/value head. */
  public int groupSize() {
    return heads / kvHeads;
  }

  /** Number of trainable parameters: the sizes of every tensor in {@link WeightSpec#layout}. */
  public long parameterCount() {
    return WeightSpec.layout(this).stream().mapToLong(s -> s.shape().size()).sum();
  }

  /** A copy with or without q/k/v biases (as the checkpoint's tensors say). */
  public ModelConfig withQkvBias(boolean bias) {
    return copy(f -> f.qkvBias = bias);
  }

  /** A copy with q/k/v biases exactly when {@code tensorNames} (a checkpoint's) holds them. */
  public ModelConfig withQkvBiasAsIn(Set<String> tensorNames) {
    return withQkvBias(tensorNames.contains(WeightSpec.layer(0, BlockTensors.Q_PROJ + ".bias")));
  }

  /** A copy with a different rotary base θ. */
  public ModelConfig withRopeTheta(double theta) {
    return copy(f -> f.ropeTheta = theta);
  }

  /** A copy with a different RMSNorm ε. */
  public ModelConfig withRmsNormEps(double eps) {
    return copy(f -> f.rmsNormEps = eps);
  }

  /** A copy with a different KV-cache capacity. */
  public ModelConfig withMaxPositions(int newMax) {
    return copy(f -> f.maxPositions = newMax);
  }

  /** A copy of another family (e.g. a random model of a recipe's {@code model_type}). */
  public ModelConfig withArchitecture(Architecture a) {
    return copy(f -> f.architecture = a);
  }

  /** This config with {@code change} applied to a mutable copy of its fields, validated again. */
  private ModelConfig copy(Consumer<Fields> change) {
    Fields f = new Fields(this);
    change.accept(f);
    return new ModelConfig(
        f.c.vocabSize,
        f.c.hidden,
        f.c.intermediate,
        f.c.layers,
        f.c.heads,
        f.c.kvHeads,
        f.c.headDim,
        f.ropeTheta,
        f.rmsNormEps,
        f.c.tieWordEmbeddings,
        f.qkvBias,
        f.maxPositions,
        f.architecture);
  }

  /** The fields a copy may change; the rest are read from the original {@code c}. */
  private static final class Fields {
    final ModelConfig c;
    double ropeTheta;
    double rmsNormEps;
    boolean qkvBias;
    int maxPositions;
    Architecture architecture;

    Fields(ModelConfig c) {
      this.c = c;
      this.ropeTheta = c.ropeTheta;
      this.rmsNormEps = c.rmsNormEps;
      this.qkvBias = c.qkvBias;
      this.maxPositions = c.maxPositions;
      this.architecture = c.architecture;
    }
  }

  /**
   * This config labelled {@code a} where {@code a} has the same block and tensors (Llama ↔ Qwen2:
   * what a checkpoint written under the other name needs).
   *
   * @throws IllegalArgumentException when the families' blocks differ
   */
  public ModelConfig relabelled(Architecture a) {
    if (a.modelType().equals(architecture.modelType())) {
      return this; // its own name (a family with fields of its own keeps them)
    }
    ModelConfig other = withArchitecture(a);
    if (!a.block().equals(architecture.block())
        || !WeightSpec.layout(other).equals(WeightSpec.layout(this))) {
      throw new IllegalArgumentException(
          "a " + architecture.modelType() + " model cannot be written as " + a.modelType());
    }
    return other;
  }

  /** ~5M parameters: the "tiny" benchmark model. */
  public static ModelConfig tiny() {
    return new ModelConfig(
        4096, 256, 1024, 4, 8, 4, 32, 10_000, 1e-6, true, true, 256, LlamaFamily.QWEN2);
  }

  /** ~50M parameters: the "small" benchmark model. */
  public static ModelConfig small() {
    return new ModelConfig(
        16384, 512, 1792, 12, 8, 4, 64, 10_000, 1e-6, true, true, 256, LlamaFamily.QWEN2);
  }
}
