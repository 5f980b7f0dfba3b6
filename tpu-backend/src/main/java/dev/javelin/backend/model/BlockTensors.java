package dev.javelin.backend.model;

import dev.javelin.backend.Shape;
import dev.javelin.backend.model.Architecture.LayerTensor;
import dev.javelin.backend.model.Architecture.TpSplit;
import java.util.ArrayList;
import java.util.List;

/**
 * The tensors of the block parts families share (attention projections, q/k norms, the gated MLP,
 * norms), with their HF and llama.cpp names, so that a family lists its block as a sequence of
 * parts and no two families spell a tensor twice.
 */
final class BlockTensors {
  private BlockTensors() {}

  /** An RMSNorm scale of width {@code size}. */
  static LayerTensor norm(String suffix, int size, String gguf) {
    return new LayerTensor(suffix, Shape.of(size), gguf, TpSplit.NONE, null);
  }

  /** q/k/v weights, their biases when the config has them, then {@code between}, then o. */
  static List<LayerTensor> attention(ModelConfig c, List<LayerTensor> between) {
    int d = c.hidden();
    int q = c.heads() * c.headDim();
    int kv = c.kvHeads() * c.headDim();
    List<LayerTensor> out = new ArrayList<>();
    out.add(column("self_attn", "q_proj", "attn_q", q, d));
    out.add(column("self_attn", "k_proj", "attn_k", kv, d));
    out.add(column("self_attn", "v_proj", "attn_v", kv, d));
    if (c.qkvBias()) {
      out.add(bias("q_proj", "attn_q", q));
      out.add(bias("k_proj", "attn_k", kv));
      out.add(bias("v_proj", "attn_v", kv));
    }
    out.addAll(between);
    out.add(linear("self_attn", "o_proj", "attn_output", d, q, TpSplit.ROW));
    return out;
  }

  /** Per-head RMSNorm scales of queries and keys (width Dh). */
  static List<LayerTensor> qkNorms(ModelConfig c) {
    return List.of(
        norm("self_attn.q_norm.weight", c.headDim(), "attn_q_norm.weight"),
        norm("self_attn.k_norm.weight", c.headDim(), "attn_k_norm.weight"));
  }

  /** The gated MLP: gate and up (F, D), down (D, F). */
  static List<LayerTensor> gatedMlp(ModelConfig c) {
    int d = c.hidden();
    int f = c.intermediate();
    return List.of(
        column("mlp", "gate_proj", "ffn_gate", f, d),
        column("mlp", "up_proj", "ffn_up", f, d),
        linear("mlp", "down_proj", "ffn_down", d, f, TpSplit.ROW));
  }

  /** The pre-norm Llama block: norm, attention ({@code between} before o), norm, gated MLP. */
  static List<LayerTensor> preNormBlock(ModelConfig c, List<LayerTensor> between) {
    List<LayerTensor> out = new ArrayList<>();
    out.add(norm("input_layernorm.weight", c.hidden(), "attn_norm.weight"));
    out.addAll(attention(c, between));
    out.add(norm("post_attention_layernorm.weight", c.hidden(), "ffn_norm.weight"));
    out.addAll(gatedMlp(c));
    return List.copyOf(out);
  }

  private static LayerTensor column(String part, String module, String gguf, int out, int in) {
    return linear(part, module, gguf, out, in, TpSplit.COLUMN);
  }

  private static LayerTensor linear(
      String part, String module, String gguf, int out, int in, TpSplit tp) {
    return new LayerTensor(
        part + "." + module + ".weight", Shape.of(out, in), gguf + ".weight", tp, module);
  }

  private static LayerTensor bias(String module, String gguf, int size) {
    return new LayerTensor(
        "self_attn." + module + ".bias", Shape.of(size), gguf + ".bias", TpSplit.COLUMN, null);
  }
}
