package dev.javelin.backend.model;

import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A model family: the one place that knows its names (Hugging Face {@code model_type} and class,
 * llama.cpp {@code general.architecture}), the config.json defaults it implies, the tensors of its
 * block (HF and llama.cpp names, shapes, how tensor parallelism splits them, which are LoRA
 * targets) and how the block is composed. Everything else asks it; {@link Architectures} lists the
 * families. Adding one is a new implementation plus its tests.
 */
public sealed interface Architecture
    permits LlamaFamily, Qwen3Family, Qwen3MoeFamily, Gemma3Family {

  /** The Hugging Face {@code config.json} {@code model_type}. */
  String modelType();

  /** The Hugging Face class written to {@code architectures} (what AutoModel instantiates). */
  String hfClass();

  /** llama.cpp's {@code general.architecture} (the {@code model_type} unless it differs). */
  default String ggufArchitecture() {
    return modelType();
  }

  /** llama.cpp's converter interleaves the rotary pairs of q/k rows (Llama), to be undone. */
  default boolean ggufPermutesRotary() {
    return false;
  }

  /** {@code attention_bias} when a config.json does not state it (transformers' default). */
  default boolean impliedQkvBias() {
    return false;
  }

  /** {@code tie_word_embeddings} when a config.json does not state it (transformers' default). */
  default boolean impliedTiedHead() {
    return false;
  }

  /** How a block is put together from the parts {@link DecoderModel} has. */
  Block block();

  /** The rotary bases of c's blocks; {@link #attention} says which one each block uses. */
  default List<RopeTable.Rope> ropes(ModelConfig c) {
    return List.of(new RopeTable.Rope(c.ropeTheta(), 1));
  }

  /** What block {@code layer}'s attention sees: every earlier token, with the first rotary base. */
  default LayerAttention attention(int layer) {
    return LayerAttention.GLOBAL;
  }

  /**
   * Whether the family reads a config.json's rotary scaling itself ({@link #configured}); for the
   * others anything but the default rotary is refused.
   */
  default boolean readsRopeScaling() {
    return false;
  }

  /** The config.json key naming the MLP's activation, and its value (the only one supported). */
  default Map.Entry<String, String> activation() {
    return Map.entry("hidden_act", "silu");
  }

  /** The tensors of one block, in layout order, named relative to {@code model.layers.{i}.}. */
  List<LayerTensor> layerTensors(ModelConfig c);

  /** The tensors of block {@code layer} (families whose blocks differ by layer override this). */
  default List<LayerTensor> layerTensors(ModelConfig c, int layer) {
    return layerTensors(c);
  }

  /** The feed-forward of block {@code layer}: the gated MLP unless the family says otherwise. */
  default FeedForward feedForward(int layer) {
    return FeedForward.GatedMlp.SWIGLU;
  }

  /** This family with the config.json fields only it has (e.g. expert counts) read from hf. */
  default Architecture configured(ConfigFields hf) {
    return this;
  }

  /** The config.json fields only this family has, as {@link #configured} reads them back. */
  default Map<String, Object> configFields() {
    return Map.of();
  }

  /**
   * This family with its fields read from GGUF metadata ({@code <arch>.*} keys in gguf) and from
   * which tensors the file has.
   */
  default Architecture ggufConfigured(ConfigFields gguf, Predicate<String> hasTensor) {
    return this;
  }

  /**
   * A layout weight (HF name) or llama.cpp tensor that a checkpoint stores in pieces (one matrix
   * per expert; gate and up apart), put together from the pieces {@code stored} returns (null when
   * absent); null when {@code name} is not such a tensor.
   */
  default Tensor.F32 assemble(String name, Function<String, Tensor.F32> stored) {
    return null;
  }

  /** The weights of c (layout names) as a transformers checkpoint stores them. */
  default Map<String, Tensor.F32> savedForm(ModelConfig c, Map<String, Tensor.F32> weights) {
    return weights;
  }

  /**
   * A block's composition.
   *
   * @param qkNorm per-head RMSNorm of queries and keys before the rotary embedding (Qwen3)
   * @param sandwichNorms the attention's and the feed-forward's outputs are RMS-normed before they
   *     join the residual stream, and the feed-forward has a norm of its own (Gemma)
   * @param normOffset added to every RMSNorm scale: 1 where a checkpoint stores w of {@code (1 +
   *     w)} (Gemma), else 0
   * @param embedScale the embeddings are multiplied by {@code sqrt(hidden)} (Gemma)
   * @param queryPreAttnScalar scores are scaled by {@code 1/sqrt} of this; 0: of the head width
   * @param finalSoftcap logits z become {@code cap · tanh(z / cap)}; 0: none
   */
  record Block(
      boolean qkNorm,
      boolean sandwichNorms,
      double normOffset,
      boolean embedScale,
      double queryPreAttnScalar,
      double finalSoftcap) {
    /** Llama: pre-norm, no q/k norms. */
    public static final Block PRE_NORM = new Block(false, false, 0, false, 0, 0);

    /** Qwen3: the Llama block with per-head q/k norms. */
    public static final Block QK_NORM = new Block(true, false, 0, false, 0, 0);

    public Block {
      if (queryPreAttnScalar < 0 || finalSoftcap < 0) {
        throw new IllegalArgumentException(
            "query_pre_attn_scalar and the soft cap must be >= 0, got "
                + queryPreAttnScalar
                + ", "
                + finalSoftcap);
      }
    }
  }

  /**
   * What one block's attention sees.
   *
   * @param window a query sees the keys fewer than this many positions back (sliding-window
   *     attention); 0: every earlier key
   * @param rope which of {@link #ropes} rotates its queries and keys
   */
  record LayerAttention(int window, int rope) {
    public static final LayerAttention GLOBAL = new LayerAttention(0, 0);

    public LayerAttention {
      if (window < 0 || rope < 0) {
        throw new IllegalArgumentException("window and rope must be >= 0: " + window + ", " + rope);
      }
    }
  }

  /** How tensor parallelism (Megatron layout, weights (out, in)) splits a tensor. */
  enum TpSplit {
    /** The out dimension (0): heads, MLP columns and their biases. */
    COLUMN,
    /** The in dimension (1): the projections back to the residual stream. */
    ROW,
    /** Not split by tp (norms). */
    NONE
  }

  /**
   * One per-layer tensor.
   *
   * @param suffix HF name after {@code model.layers.{i}.}, e.g. {@code self_attn.q_proj.weight}
   * @param shape its shape ({@code nn.Linear} weights are (out, in))
   * @param gguf llama.cpp name after {@code blk.{i}.}, e.g. {@code attn_q.weight}
   * @param tp how tensor parallelism splits it
   * @param loraModule the PEFT module name when it is a linear weight LoRA can adapt, else null
   */
  record LayerTensor(String suffix, Shape shape, String gguf, TpSplit tp, String loraModule) {
    /** Whether LoRA can put an adapter on this weight. */
    public boolean adaptable() {
      return loraModule != null;
    }
  }
}
