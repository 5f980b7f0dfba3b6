package dev.javelin.backend.model;

import java.util.List;

/**
 * Llama and Qwen2: pre-norm blocks of RMSNorm → grouped-query attention with RoPE → RMSNorm →
 * SwiGLU MLP. The two differ only in names and in what their config.json leaves implied (Qwen2's
 * q/k/v biases and tied head); a config.json's {@code attention_bias} and {@code
 * tie_word_embeddings} override either.
 */
public enum LlamaFamily implements Architecture {
  LLAMA("llama", "LlamaForCausalLM"),
  QWEN2("qwen2", "Qwen2ForCausalLM");

  private final String modelType;
  private final String hfClass;

  LlamaFamily(String modelType, String hfClass) {
    this.modelType = modelType;
    this.hfClass = hfClass;
  }

  @Override
  public String modelType() {
    return modelType;
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
