package dev.javelin.backend.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * Gemma 3 text ({@code gemma3_text}): sandwich-normed blocks (RMSNorm of the attention's and the
 * GeGLU MLP's outputs as well as of their inputs), per-head q/k norms, RMSNorm scales stored as w
 * of {@code (1 + w)}, embeddings scaled by {@code sqrt(hidden)}, scores scaled by {@code
 * 1/sqrt(query_pre_attn_scalar)}, logits soft-capped where the config sets a cap, and two kinds of
 * block: sliding-window ones ({@code sliding_attention}: a query sees the {@code sliding_window}
 * latest keys, rotary base {@code rope_local_base_freq}) and global ones ({@code full_attention}:
 * every earlier key, base {@code rope_theta} with an optional linear {@code rope_scaling}). {@link
 * #GEMMA3} (every other block global, a 16-token window) is the shape of a random model of this
 * type and the registry's entry.
 *
 * @param slidingWindow how many latest keys a sliding-window block sees ({@code sliding_window})
 * @param layerTypes each block's {@code sliding_attention} or {@code full_attention} ({@code
 *     layer_types}); empty: by {@code pattern}
 * @param pattern without layer types, every pattern-th block is global ({@code
 *     sliding_window_pattern})
 * @param localRopeTheta the rotary base of sliding-window blocks ({@code rope_local_base_freq})
 * @param globalRopeFactor the linear rotary scaling of global blocks (1: none)
 * @param queryPreAttnScalar scores are scaled by {@code 1/sqrt} of this ({@code
 *     query_pre_attn_scalar})
 * @param finalSoftcap logits z become {@code cap · tanh(z / cap)} ({@code final_logit_softcapping};
 *     0: none, as in Gemma 3's own configs). Its {@code attn_logit_softcapping} is not read:
 *     transformers' Gemma 3 attention does not apply it.
 */
public record Gemma3Family(
    int slidingWindow,
    List<String> layerTypes,
    int pattern,
    double localRopeTheta,
    double globalRopeFactor,
    int queryPreAttnScalar,
    double finalSoftcap)
    implements Architecture {

  public static final Gemma3Family GEMMA3 = new Gemma3Family(16, List.of(), 2, 10_000, 1, 256, 0);

  static final String SLIDING = "sliding_attention";
  static final String FULL = "full_attention";

  // config.json keys (transformers' Gemma3TextConfig)
  private static final String WINDOW = "sliding_window";
  private static final String LAYER_TYPES = "layer_types";
  private static final String PATTERN = "sliding_window_pattern";
  private static final String LOCAL_BASE = "rope_local_base_freq";
  private static final String SCALING = "rope_scaling";
  private static final String ROPE_PARAMETERS = "rope_parameters";
  private static final String SCALAR = "query_pre_attn_scalar";
  private static final String ACTIVATION = "hidden_activation";
  private static final String GELU_TANH = "gelu_pytorch_tanh";
  private static final String FINAL_SOFTCAP = "final_logit_softcapping";

  public Gemma3Family {
    layerTypes = List.copyOf(layerTypes);
    if (slidingWindow <= 0 || pattern <= 0) {
      throw new IllegalArgumentException(
          "sliding_window and sliding_window_pattern must be > 0: "
              + slidingWindow
              + ", "
              + pattern);
    }
    for (String t : layerTypes) {
      if (!t.equals(SLIDING) && !t.equals(FULL)) {
        throw new IllegalArgumentException(
            "layer type '" + t + "' (" + SLIDING + " or " + FULL + ")");
      }
    }
    new RopeTable.Rope(localRopeTheta, globalRopeFactor); // both > 0
    if (finalSoftcap < 0) {
      throw new IllegalArgumentException(
          "final_logit_softcapping must be > 0 (0: none), got " + finalSoftcap);
    }
  }

  @Override
  public String modelType() {
    return "gemma3_text";
  }

  @Override
  public String hfClass() {
    return "Gemma3ForCausalLM";
  }

  @Override
  public String ggufArchitecture() {
    return "gemma3";
  }

  @Override
  public boolean impliedTiedHead() {
    return true;
  }

  /** Whether block {@code layer} attends within the sliding window. */
  public boolean sliding(int layer) {
    return layerTypes.isEmpty()
        ? (layer + 1) % pattern != 0
        : layerTypes.get(layer).equals(SLIDING);
  }

  @Override
  public Block block() {
    return new Block(true, true, 1, true, queryPreAttnScalar, finalSoftcap);
  }

  /** Global blocks rotate with {@code rope_theta} (scaled), sliding ones with the local base. */
  @Override
  public List<RopeTable.Rope> ropes(ModelConfig c) {
    return List.of(
        new RopeTable.Rope(c.ropeTheta(), globalRopeFactor), new RopeTable.Rope(localRopeTheta, 1));
  }

  @Override
  public boolean readsRopeScaling() {
    return true;
  }

  @Override
  public LayerAttention attention(int layer) {
    return sliding(layer) ? new LayerAttention(slidingWindow, 1) : LayerAttention.GLOBAL;
  }

  @Override
  public FeedForward feedForward(int layer) {
    return FeedForward.GatedMlp.GEGLU;
  }

  @Override
  public Map.Entry<String, String> activation() {
    return Map.entry(ACTIVATION, GELU_TANH);
  }

  @Override
  public List<LayerTensor> layerTensors(ModelConfig c) {
    return BlockTensors.sandwichBlock(c);
  }

  /**
   * Reads both config.json forms: transformers 5's {@code rope_parameters} per layer type, and the
   * older {@code rope_local_base_freq} and {@code rope_scaling}.
   */
  @Override
  public Architecture configured(ConfigFields hf) {
    if (hf.flag("use_bidirectional_attention", false)) {
      throw new IllegalArgumentException("use_bidirectional_attention=true is not supported");
    }
    ConfigFields ropes = hf.section(ROPE_PARAMETERS);
    ConfigFields local = ropes.section(SLIDING);
    ConfigFields global = ropes.has(FULL) ? ropes.section(FULL) : hf.section(SCALING);
    List<String> types = hf.texts(LAYER_TYPES);
    int layers = hf.integer("num_hidden_layers", types.size());
    if (!types.isEmpty() && types.size() != layers) {
      throw new IllegalArgumentException(
          LAYER_TYPES + " lists " + types.size() + " blocks, the model has " + layers);
    }
    if (linearFactor(local) != 1) {
      throw new IllegalArgumentException("only global blocks may scale their rotary");
    }
    int pattern = patternOf(types, hf.integer(PATTERN, 6));
    return new Gemma3Family(
        hf.integer(WINDOW, 4096),
        types.equals(byPattern(pattern, types.size())) ? List.of() : types,
        pattern,
        local.real("rope_theta", hf.real(LOCAL_BASE, 10_000)),
        linearFactor(global),
        hf.integer(SCALAR, 256),
        hf.real(FINAL_SOFTCAP, 0));
  }

  /**
   * The pattern that lays out {@code types} ({@code stated}, or one more than the first global
   * block's index), so that a config.json listing the layer types of a pattern and one stating the
   * pattern (or a GGUF, which has only the pattern) read as the same family; {@code stated} when
   * none does.
   */
  private static int patternOf(List<String> types, int stated) {
    int first = types.indexOf(FULL) + 1;
    boolean other =
        !types.equals(byPattern(stated, types.size()))
            && first > 0
            && types.equals(byPattern(first, types.size()));
    return other ? first : stated;
  }

  /** The layer types of {@code layers} blocks where every pattern-th one is global. */
  private static List<String> byPattern(int pattern, int layers) {
    return IntStream.range(0, layers)
        .mapToObj(i -> (i + 1) % pattern == 0 ? FULL : SLIDING)
        .toList();
  }

  /**
   * llama.cpp's {@code gemma3}: the window from {@code gemma3.attention.sliding_window}, a linear
   * {@code gemma3.rope.scaling.*} of the global blocks; like llama.cpp, every 6th block global, the
   * local base 10000, and scores scaled by {@code 1/sqrt(head_dim)} except in the 62-block model
   * (Gemma 3 27B), whose scalar is hidden / heads.
   */
  @Override
  public Architecture ggufConfigured(ConfigFields gguf, Predicate<String> hasTensor) {
    String arch = ggufArchitecture() + ".";
    int headDim = gguf.integer(arch + "attention.key_length", 256);
    int scalar =
        gguf.integer(arch + "block_count", 0) == 62
            ? gguf.integer(arch + "embedding_length", 0)
                / gguf.integer(arch + "attention.head_count", 1)
            : headDim;
    boolean linear = gguf.text(arch + "rope.scaling.type", "none").equals("linear");
    return new Gemma3Family(
        gguf.integer(arch + "attention.sliding_window", 4096),
        List.of(),
        6,
        10_000,
        linear ? gguf.real(arch + "rope.scaling.factor", 1) : 1,
        scalar,
        0);
  }

  /** The factor of a linear rotary scaling, 1 for the default rotary. */
  private static double linearFactor(ConfigFields rope) {
    String type = rope.text("rope_type", rope.text("type", "default"));
    return switch (type) {
      case "default" -> 1;
      case "linear" -> rope.real("factor", 1);
      default ->
          throw new IllegalArgumentException(
              "rope_type '" + type + "' is not supported (default or linear)");
    };
  }

  /** Written in the older form, which transformers still reads. */
  @Override
  public Map<String, Object> configFields() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(WINDOW, slidingWindow);
    if (layerTypes.isEmpty()) {
      m.put(PATTERN, pattern);
    } else {
      m.put(LAYER_TYPES, layerTypes);
    }
    m.put(LOCAL_BASE, localRopeTheta);
    if (globalRopeFactor != 1) {
      m.put(SCALING, Map.of("rope_type", "linear", "factor", globalRopeFactor));
    }
    m.put(SCALAR, queryPreAttnScalar);
    if (finalSoftcap != 0) {
      m.put(FINAL_SOFTCAP, finalSoftcap);
    }
    return m;
  }
}
