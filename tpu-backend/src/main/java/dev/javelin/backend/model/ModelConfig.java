package dev.javelin.backend.model;

/**
 * Shape of a Llama/Qwen2-family decoder: embedding, {@code layers} blocks of RMSNorm → GQA
 * attention with RoPE → RMSNorm → SwiGLU MLP, a final RMSNorm and the LM head.
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
    int maxPositions) {

  public ModelConfig {
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

  /** Number of trainable parameters. */
  public long parameterCount() {
    long attn = (long) hidden * heads * headDim * 2 + (long) hidden * kvHeads * headDim * 2;
    long bias = qkvBias ? (long) (heads + 2 * kvHeads) * headDim : 0;
    long mlp = 3L * hidden * intermediate;
    long block = attn + bias + mlp + 2L * hidden;
    long head = tieWordEmbeddings ? 0 : (long) vocabSize * hidden;
    return (long) vocabSize * hidden + layers * block + hidden + head;
  }

  /** A copy with or without q/k/v biases (as the checkpoint's tensors say). */
  public ModelConfig withQkvBias(boolean bias) {
    return new ModelConfig(
        vocabSize,
        hidden,
        intermediate,
        layers,
        heads,
        kvHeads,
        headDim,
        ropeTheta,
        rmsNormEps,
        tieWordEmbeddings,
        bias,
        maxPositions);
  }

  /** A copy with a different KV-cache capacity. */
  public ModelConfig withMaxPositions(int newMax) {
    return new ModelConfig(
        vocabSize,
        hidden,
        intermediate,
        layers,
        heads,
        kvHeads,
        headDim,
        ropeTheta,
        rmsNormEps,
        tieWordEmbeddings,
        qkvBias,
        newMax);
  }

  /** ~5M parameters: the "tiny" benchmark model. */
  public static ModelConfig tiny() {
    return new ModelConfig(4096, 256, 1024, 4, 8, 4, 32, 10_000, 1e-6, true, true, 256);
  }

  /** ~50M parameters: the "small" benchmark model. */
  public static ModelConfig small() {
    return new ModelConfig(16384, 512, 1792, 12, 8, 4, 64, 10_000, 1e-6, true, true, 256);
  }
}
