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

  // Module paths inside a block (HF names less model.layers.{i}. and .weight/.bias).
  static final String INPUT_NORM = "input_layernorm";
  static final String POST_ATTENTION_NORM = "post_attention_layernorm";
  static final String PRE_FEEDFORWARD_NORM = "pre_feedforward_layernorm";
  static final String POST_FEEDFORWARD_NORM = "post_feedforward_layernorm";
  static final String Q_PROJ = "self_attn.q_proj";
  static final String K_PROJ = "self_attn.k_proj";
  static final String V_PROJ = "self_attn.v_proj";
  static final String O_PROJ = "self_attn.o_proj";
  static final String Q_NORM = "self_attn.q_norm";
  static final String K_NORM = "self_attn.k_norm";
  static final String GATE_PROJ = "mlp.gate_proj";
  static final String UP_PROJ = "mlp.up_proj";
  static final String DOWN_PROJ = "mlp.down_proj";

  /** An RMSNorm scale of width {@code size}. */
  static LayerTensor norm(String path, int size, String gguf) {
    return new LayerTensor(path + ".weight", Shape.of(size), gguf + ".weight", TpSplit.NONE, null);
  }

  /** q/k/v weights, their biases when the config has them, then {@code between}, then o. */
  static List<LayerTensor> attention(ModelConfig c, List<LayerTensor> between) {
    int d = c.hidden();
    int q = c.heads() * c.headDim();
    int kv = c.kvHeads() * c.headDim();
    List<LayerTensor> out = new ArrayList<>();
    out.add(linear(Q_PROJ, "attn_q", q, d, TpSplit.COLUMN));
    out.add(linear(K_PROJ, "attn_k", kv, d, TpSplit.COLUMN));
    out.add(linear(V_PROJ, "attn_v", kv, d, TpSplit.COLUMN));
    if (c.qkvBias()) {
      out.add(bias(Q_PROJ, "attn_q", q));
      out.add(bias(K_PROJ, "attn_k", kv));
      out.add(bias(V_PROJ, "attn_v", kv));
    }
    out.addAll(between);
    out.add(linear(O_PROJ, "attn_output", d, q, TpSplit.ROW));
    return out;
  }

  /** Per-head RMSNorm scales of queries and keys (width Dh). */
  static List<LayerTensor> qkNorms(ModelConfig c) {
    return List.of(
        norm(Q_NORM, c.headDim(), "attn_q_norm"), norm(K_NORM, c.headDim(), "attn_k_norm"));
  }

  /** The gated MLP: gate and up (F, D), down (D, F). */
  static List<LayerTensor> gatedMlp(ModelConfig c) {
    int d = c.hidden();
    int f = c.intermediate();
    return List.of(
        linear(GATE_PROJ, "ffn_gate", f, d, TpSplit.COLUMN),
        linear(UP_PROJ, "ffn_up", f, d, TpSplit.COLUMN),
        linear(DOWN_PROJ, "ffn_down", d, f, TpSplit.ROW));
  }

  /** The pre-norm Llama block: norm, attention ({@code between} before o), norm, gated MLP. */
  static List<LayerTensor> preNormBlock(ModelConfig c, List<LayerTensor> between) {
    return preNormBlock(c, between, gatedMlp(c));
  }

  /** The pre-norm block with the feed-forward tensors {@code ffn}. */
  static List<LayerTensor> preNormBlock(
      ModelConfig c, List<LayerTensor> between, List<LayerTensor> ffn) {
    List<LayerTensor> out = new ArrayList<>();
    out.add(norm(INPUT_NORM, c.hidden(), "attn_norm"));
    out.addAll(attention(c, between));
    out.add(norm(POST_ATTENTION_NORM, c.hidden(), "ffn_norm"));
    out.addAll(ffn);
    return List.copyOf(out);
  }

  /**
   * The sandwich block (Gemma): norm, attention with q/k norms, norm of its output, norm, gated
   * MLP, norm of its output. {@code post_attention_layernorm} here normalises the attention's
   * output (llama.cpp: {@code attn_post_norm}), not the MLP's input as in the pre-norm block.
   */
  static List<LayerTensor> sandwichBlock(ModelConfig c) {
    int d = c.hidden();
    List<LayerTensor> out = new ArrayList<>();
    out.add(norm(INPUT_NORM, d, "attn_norm"));
    out.addAll(attention(c, qkNorms(c)));
    out.add(norm(POST_ATTENTION_NORM, d, "post_attention_norm"));
    out.add(norm(PRE_FEEDFORWARD_NORM, d, "ffn_norm"));
    out.addAll(gatedMlp(c));
    out.add(norm(POST_FEEDFORWARD_NORM, d, "post_ffw_norm"));
    return List.copyOf(out);
  }

  /** An {@code nn.Linear} weight (out, in); its PEFT module name is the path's last part. */
  private static LayerTensor linear(String path, String gguf, int out, int in, TpSplit tp) {
    String module = path.substring(path.lastIndexOf('.') + 1);
    return new LayerTensor(path + ".weight", Shape.of(out, in), gguf + ".weight", tp, module);
  }

  private static LayerTensor bias(String path, String gguf, int size) {
    return new LayerTensor(path + ".bias", Shape.of(size), gguf + ".bias", TpSplit.COLUMN, null);
  }
}
