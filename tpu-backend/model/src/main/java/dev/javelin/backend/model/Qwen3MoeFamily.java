package dev.javelin.backend.model;

import dev.javelin.backend.Tensor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Qwen3-MoE: the Qwen3 block (per-head q/k RMSNorm) whose feed-forward is a {@link MoeFeedForward}
 * in every {@code decoder_sparse_step}-th block outside {@code mlp_only_layers}, and the gated MLP
 * ({@code intermediate_size}) elsewhere. Unlike the other families it carries config.json fields of
 * its own; {@link #QWEN3_MOE} (4 experts, top-2 renormalised, width 64, every block routed) is the
 * shape of a random model of this type and the registry's entry.
 *
 * @param moe the routed feed-forward
 * @param sparseStep every how many blocks one is routed ({@code decoder_sparse_step})
 * @param mlpOnlyLayers blocks that keep the gated MLP ({@code mlp_only_layers})
 * @param routerAuxLossCoef config.json's {@code router_aux_loss_coef}, kept to write the config
 *     back; training adds the load-balancing loss with the recipe's coefficient instead (default 0)
 */
public record Qwen3MoeFamily(
    MoeFeedForward moe, int sparseStep, List<Integer> mlpOnlyLayers, double routerAuxLossCoef)
    implements Architecture {

  public static final Qwen3MoeFamily QWEN3_MOE =
      new Qwen3MoeFamily(new MoeFeedForward(4, 2, 64, true), 1, List.of(), 0.001);

  // config.json keys (transformers' Qwen3MoeConfig) and llama.cpp metadata keys
  private static final String EXPERTS = "num_experts";
  private static final String LOCAL_EXPERTS = "num_local_experts"; // what transformers 5 writes
  private static final String TOP_K = "num_experts_per_tok";
  private static final String WIDTH = "moe_intermediate_size";
  private static final String NORM_TOP_K = "norm_topk_prob";
  private static final String SPARSE_STEP = "decoder_sparse_step";
  private static final String MLP_ONLY = "mlp_only_layers";
  private static final String AUX_COEF = "router_aux_loss_coef";

  public Qwen3MoeFamily {
    mlpOnlyLayers = List.copyOf(mlpOnlyLayers);
    if (sparseStep <= 0) {
      throw new IllegalArgumentException("decoder_sparse_step must be > 0, got " + sparseStep);
    }
    if (!(routerAuxLossCoef >= 0)) {
      throw new IllegalArgumentException(
          "router_aux_loss_coef must be >= 0, got " + routerAuxLossCoef);
    }
  }

  @Override
  public String modelType() {
    return "qwen3_moe";
  }

  /** Whether block {@code layer} is routed (transformers' Qwen3MoeDecoderLayer rule). */
  public boolean routed(int layer) {
    return !mlpOnlyLayers.contains(layer) && (layer + 1) % sparseStep == 0;
  }

  @Override
  public String hfClass() {
    return "Qwen3MoeForCausalLM";
  }

  @Override
  public FeedForward feedForward(int layer) {
    return routed(layer) ? moe : FeedForward.GatedMlp.SWIGLU;
  }

  @Override
  public Block block() {
    return Block.QK_NORM;
  }

  /** The tensors of a routed block. */
  @Override
  public List<LayerTensor> layerTensors(ModelConfig c) {
    return BlockTensors.preNormBlock(c, BlockTensors.qkNorms(c), moe.tensors(c));
  }

  @Override
  public List<LayerTensor> layerTensors(ModelConfig c, int layer) {
    return BlockTensors.preNormBlock(c, BlockTensors.qkNorms(c), feedForward(layer).tensors(c));
  }

  @Override
  public String ggufArchitecture() {
    return "qwen3moe";
  }

  @Override
  public Architecture configured(ConfigFields hf) {
    return new Qwen3MoeFamily(
        new MoeFeedForward(
            hf.integer(EXPERTS, hf.integer(LOCAL_EXPERTS, 128)),
            hf.integer(TOP_K, 8),
            hf.integer(WIDTH, 768),
            hf.flag(NORM_TOP_K, false)),
        hf.integer(SPARSE_STEP, 1),
        hf.integers(MLP_ONLY),
        hf.real(AUX_COEF, 0.001));
  }

  @Override
  public Map<String, Object> configFields() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(EXPERTS, moe.experts());
    m.put(TOP_K, moe.topK());
    m.put(WIDTH, moe.intermediate());
    m.put(NORM_TOP_K, moe.normTopKProb());
    m.put(SPARSE_STEP, sparseStep);
    m.put(MLP_ONLY, mlpOnlyLayers);
    m.put(AUX_COEF, routerAuxLossCoef);
    return m;
  }

  /**
   * llama.cpp's {@code qwen3moe}: expert counts and width from {@code qwen3moe.expert_*}; it always
   * renormalises the top k; a block without a router ({@code ffn_gate_inp}) is a dense one.
   */
  @Override
  public Architecture ggufConfigured(ConfigFields gguf, Predicate<String> hasTensor) {
    String arch = ggufArchitecture() + ".";
    int blocks = gguf.integer(arch + "block_count", 0);
    List<Integer> dense =
        java.util.stream.IntStream.range(0, blocks)
            .filter(i -> !hasTensor.test("blk." + i + ".ffn_gate_inp.weight"))
            .boxed()
            .toList();
    return new Qwen3MoeFamily(
        new MoeFeedForward(
            gguf.integer(arch + "expert_count", 0),
            gguf.integer(arch + "expert_used_count", 0),
            gguf.integer(arch + "expert_feed_forward_length", 0),
            gguf.flag(arch + "expert_weights_norm", true)),
        1,
        dense,
        0.001);
  }

  @Override
  public Tensor.F32 assemble(String name, Function<String, Tensor.F32> stored) {
    return ExpertTensors.assemble(name, stored);
  }

  @Override
  public Map<String, Tensor.F32> savedForm(ModelConfig c, Map<String, Tensor.F32> weights) {
    return ExpertTensors.perExpert(weights);
  }
}
