package dev.javelin.backend.model;

import java.util.List;
import java.util.Locale;

/**
 * Llama and Qwen2: pre-norm blocks of RMSNorm → grouped-query attention with RoPE → RMSNorm →
 * SwiGLU MLP. The two differ only in names and in what their config.json leaves implied (Qwen2's
 * q/k/v biases and tied head); a config.json's {@code attention_bias} and {@code
 * tie_word_embeddings} override either.
 */
public enum LlamaFamily implements Architecture {
  LLAMA("LlamaForCausalLM"),
  QWEN2("Qwen2ForCausalLM");

  private final String hfClass;

  LlamaFamily(String hfClass) {
    this.hfClass = hfClass;
  }

  /** config.json's {@code model_type}: the constant's name in lower case. */
  @Override
  public String modelType() {
    return name().toLowerCase(Locale.ROOT);
  }

  @Override
  public String hfClass() {
    return hfClass;
  }

  @Override
  public boolean ggufPermutesRotary() {
    return this == LLAMA; // llama.cpp's convert_hf_to_gguf permutes q/k for Llama only
  }

  @Override
  public boolean impliedQkvBias() {
    return this == QWEN2;
  }

  @Override
  public boolean impliedTiedHead() {
    return this == QWEN2;
  }

  @Override
  public Block block() {
    return Block.PRE_NORM;
  }

  @Override
  public List<LayerTensor> layerTensors(ModelConfig c) {
    return BlockTensors.preNormBlock(c, List.of());
  }
}
