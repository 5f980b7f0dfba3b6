package dev.javelin.backend.model;

import dev.javelin.backend.Shape;
import java.util.ArrayList;
import java.util.List;

/** One trainable tensor of the model: its Hugging Face name and shape. */
public record WeightSpec(String name, Shape shape) {
  public WeightSpec {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("weight name must be non-empty");
    }
  }

  public static final String EMBED = "model.embed_tokens.weight";
  public static final String FINAL_NORM = "model.norm.weight";
  public static final String LM_HEAD = "lm_head.weight";

  /** Name of a per-layer weight, e.g. {@code layer(3, "self_attn.q_proj.weight")}. */
  public static String layer(int i, String suffix) {
    return "model.layers." + i + "." + suffix;
  }

  /**
   * Every weight of {@code c} in a fixed order (HF names; {@code nn.Linear} weights are (out, in)).
   * A tied model has no {@code lm_head.weight}: the head reuses the embedding table.
   */
  public static List<WeightSpec> layout(ModelConfig c) {
    int d = c.hidden();
    int q = c.heads() * c.headDim();
    int kv = c.kvHeads() * c.headDim();
    List<WeightSpec> out = new ArrayList<>();
    out.add(new WeightSpec(EMBED, Shape.of(c.vocabSize(), d)));
    for (int i = 0; i < c.layers(); i++) {
      out.add(new WeightSpec(layer(i, "input_layernorm.weight"), Shape.of(d)));
      out.add(new WeightSpec(layer(i, "self_attn.q_proj.weight"), Shape.of(q, d)));
      out.add(new WeightSpec(layer(i, "self_attn.k_proj.weight"), Shape.of(kv, d)));
      out.add(new WeightSpec(layer(i, "self_attn.v_proj.weight"), Shape.of(kv, d)));
      if (c.qkvBias()) {
        out.add(new WeightSpec(layer(i, "self_attn.q_proj.bias"), Shape.of(q)));
        out.add(new WeightSpec(layer(i, "self_attn.k_proj.bias"), Shape.of(kv)));
        out.add(new WeightSpec(layer(i, "self_attn.v_proj.bias"), Shape.of(kv)));
      }
      out.add(new WeightSpec(layer(i, "self_attn.o_proj.weight"), Shape.of(d, q)));
      out.add(new WeightSpec(layer(i, "post_attention_layernorm.weight"), Shape.of(d)));
      out.add(new WeightSpec(layer(i, "mlp.gate_proj.weight"), Shape.of(c.intermediate(), d)));
      out.add(new WeightSpec(layer(i, "mlp.up_proj.weight"), Shape.of(c.intermediate(), d)));
      out.add(new WeightSpec(layer(i, "mlp.down_proj.weight"), Shape.of(d, c.intermediate())));
    }
    out.add(new WeightSpec(FINAL_NORM, Shape.of(d)));
    if (!c.tieWordEmbeddings()) {
      out.add(new WeightSpec(LM_HEAD, Shape.of(c.vocabSize(), d)));
    }
    return List.copyOf(out);
  }
}
