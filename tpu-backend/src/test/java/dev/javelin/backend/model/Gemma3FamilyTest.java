package dev.javelin.backend.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.Shape;
import dev.javelin.backend.checkpoint.HfConfigJson;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.checkpoint.gguf.GgufNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the Gemma 3 family decides: which blocks slide and which rotary table each uses, its block's
 * tensors (sandwich norms) and their llama.cpp names, what LoRA adapts, and the config.json forms
 * it reads and writes.
 */
class Gemma3FamilyTest {
  private static final Gemma3Family FAMILY = new Gemma3Family(8, List.of(), 3, 10_000, 4, 64, 0);
  private static final ModelConfig C =
      new ModelConfig(64, 32, 48, 4, 4, 2, 16, 1e6, 1e-6, true, false, 32, FAMILY);

  @TempDir Path tmp;

  @Test
  void everyPatternThBlockIsGlobalWithItsOwnRotaryBase() {
    assertEquals(
        List.of(true, true, false, true),
        List.of(0, 1, 2, 3).stream().map(FAMILY::sliding).toList());
    assertEquals(new Architecture.LayerAttention(8, 1), FAMILY.attention(0));
    assertEquals(Architecture.LayerAttention.GLOBAL, FAMILY.attention(2));
    assertEquals(
        List.of(new RopeTable.Rope(1e6, 4), new RopeTable.Rope(10_000, 1)), FAMILY.ropes(C));
    assertEquals(16, RopeTable.width(C)); // two tables of Dh/2
    Gemma3Family listed =
        new Gemma3Family(8, List.of("full_attention", "sliding_attention"), 6, 10_000, 1, 64, 0);
    assertEquals(List.of(false, true), List.of(listed.sliding(0), listed.sliding(1)));
  }

  @Test
  void blocksAreSandwichNormedWithLlamaCppNames() {
    List<String> names =
        FAMILY.layerTensors(C).stream().map(Architecture.LayerTensor::suffix).toList();
    assertEquals(
        List.of(
            "input_layernorm.weight",
            "self_attn.q_proj.weight",
            "self_attn.k_proj.weight",
            "self_attn.v_proj.weight",
            "self_attn.q_norm.weight",
            "self_attn.k_norm.weight",
            "self_attn.o_proj.weight",
            "post_attention_layernorm.weight",
            "pre_feedforward_layernorm.weight",
            "mlp.gate_proj.weight",
            "mlp.up_proj.weight",
            "mlp.down_proj.weight",
            "post_feedforward_layernorm.weight"),
        names);
    Map.of(
            "post_attention_layernorm", "post_attention_norm",
            "pre_feedforward_layernorm", "ffn_norm",
            "post_feedforward_layernorm", "post_ffw_norm")
        .forEach(
            (hf, gguf) ->
                assertEquals(
                    "blk.1." + gguf + ".weight",
                    GgufNames.ggufName(C, "model.layers.1." + hf + ".weight")));
    assertTrue(WeightSpec.layout(C).contains(new WeightSpec("model.norm.weight", Shape.of(32))));
  }

  @Test
  void loraAdaptsEveryLinearLayer() {
    LoraConfig lora = new LoraConfig(4, 8, Set.copyOf(LoraConfig.MODULES));
    assertEquals(4 * 7, lora.adapters(C).size());
  }

  @Test
  void configJsonRoundTripsTheGemmaFields() {
    HfFixture.assertWrittenBackAsItself(ModelCheckpoint.random(C, 1, 0.02), tmp.resolve("hf"));
  }

  /** transformers 5's rope_parameters per layer type and the older flat keys mean the same. */
  @Test
  void readsBothConfigForms() throws Exception {
    String common =
        "\"model_type\": \"gemma3_text\", \"vocab_size\": 64, \"hidden_size\": 32,"
            + " \"intermediate_size\": 48, \"num_hidden_layers\": 4, \"num_attention_heads\": 4,"
            + " \"num_key_value_heads\": 2, \"head_dim\": 16, \"max_position_embeddings\": 32,"
            + " \"sliding_window\": 8, \"query_pre_attn_scalar\": 64,"
            + " \"hidden_activation\": \"gelu_pytorch_tanh\", ";
    String nested =
        "{"
            + common
            + "\"layer_types\": [\"sliding_attention\", \"sliding_attention\","
            + " \"full_attention\", \"sliding_attention\"], \"rope_parameters\": {"
            + " \"full_attention\": {\"rope_type\": \"linear\", \"factor\": 4.0,"
            + " \"rope_theta\": 1000000.0},"
            + " \"sliding_attention\": {\"rope_type\": \"default\", \"rope_theta\": 10000.0}}}";
    String flat =
        "{"
            + common
            + "\"sliding_window_pattern\": 3, \"rope_theta\": 1000000.0,"
            + " \"rope_local_base_freq\": 10000.0,"
            + " \"rope_scaling\": {\"rope_type\": \"linear\", \"factor\": 4.0}}";
    // layer types that follow a pattern read as that pattern
    assertEquals(C, read(nested));
    assertEquals(C, read(flat));
  }

  @Test
  void refusesLayerTypesOfAnotherDepth() {
    String json =
        "{\"model_type\": \"gemma3_text\", \"vocab_size\": 64, \"hidden_size\": 32,"
            + " \"intermediate_size\": 48, \"num_hidden_layers\": 3, \"num_attention_heads\": 4,"
            + " \"layer_types\": [\"sliding_attention\", \"full_attention\"]}";
    Exception e = assertThrows(IllegalArgumentException.class, () -> read(json));
    assertTrue(
        e.getMessage().contains("layer_types lists 2 blocks, the model has 3"), e.getMessage());
  }

  @Test
  void logitSoftCapRoundTripsAndReachesTheBlock() {
    Gemma3Family capped = new Gemma3Family(8, List.of(), 3, 10_000, 4, 64, 30);
    ModelConfig c = C.withArchitecture(capped);
    HfFixture.assertWrittenBackAsItself(ModelCheckpoint.random(c, 1, 0.02), tmp.resolve("hf"));
    assertEquals(30, capped.block().finalSoftcap());
    assertEquals(0, FAMILY.block().finalSoftcap());
  }

  /**
   * The transformers fixture written back loads as itself; the copy stays in target/hf-writeback
   * for tools/hf_load_check.py (transformers loads it and gives the fixture's logits).
   */
  @Test
  void fixtureWrittenBackLoadsAsItself() {
    ModelCheckpoint ck = HfFixture.load("gemma3-tiny").checkpoint();
    Path dir =
        Path.of(System.getProperty("javelin.root"), "tpu-backend/target/hf-writeback/gemma3-tiny");
    HfFixture.assertWrittenBackAsItself(ck, dir);
  }

  private ModelConfig read(String json) throws Exception {
    Path f = tmp.resolve("config.json");
    Files.writeString(f, json);
    return HfConfigJson.read(f);
  }
}
