package dev.javelin.backend.model;

import java.util.List;

/**
 * Qwen3 dense: the Llama block with a per-head RMSNorm on queries and keys (before the rotary
 * embedding), no q/k/v biases unless the config says so, and {@code head_dim} from the config (not
 * always hidden / heads).
 */
public enum Qwen3Family implements Architecture {
  QWEN3;

  @Override
  public String modelType() {
    return "qwen3";
  }

  @Override
  public String hfClass() {
    return "Qwen3ForCausalLM";
  }

  @Override
  public Block block() {
    return Block.QK_NORM;
  }

  @Override
  public List<LayerTensor> layerTensors(ModelConfig c) {
    return BlockTensors.preNormBlock(c, BlockTensors.qkNorms(c));
  }
}
