package dev.javelin.backend.model;

import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
   * Every weight of {@code c} in a fixed order (HF names; {@code nn.Linear} weights are (out, in)):
   * the embedding, each block's tensors as its {@link Architecture} lists them, the final norm and,
   * unless tied, the head. A tied model has no {@code lm_head.weight}.
   */
  public static List<WeightSpec> layout(ModelConfig c) {
    List<WeightSpec> out = new ArrayList<>();
    out.add(new WeightSpec(EMBED, Shape.of(c.vocabSize(), c.hidden())));
    for (int i = 0; i < c.layers(); i++) {
      for (Architecture.LayerTensor t : c.architecture().layerTensors(c, i)) {
        out.add(new WeightSpec(layer(i, t.suffix()), t.shape()));
      }
    }
    out.add(new WeightSpec(FINAL_NORM, Shape.of(c.hidden())));
    if (!c.tieWordEmbeddings()) {
      out.add(new WeightSpec(LM_HEAD, Shape.of(c.vocabSize(), c.hidden())));
    }
    return List.copyOf(out);
  }

  /**
   * Checks that {@code weights} holds every tensor of {@code config}'s layout in its shape (extra
   * names are allowed), naming the first one missing or misshapen.
   */
  public static void check(ModelConfig config, Map<String, ? extends Tensor> weights) {
    for (WeightSpec s : layout(config)) {
      Tensor t = weights.get(s.name());
      if (t == null) {
        throw new IllegalArgumentException("checkpoint lacks weight '" + s.name() + "'");
      }
      if (!t.shape().equals(s.shape())) {
        throw new IllegalArgumentException(
            "weight '" + s.name() + "' has shape " + t.shape() + ", config needs " + s.shape());
      }
    }
  }
}
