package dev.javelin.backend.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.checkpoint.safetensors.HfCheckpoint;
import dev.javelin.backend.checkpoint.safetensors.StorageType;
import dev.javelin.backend.program.ShardPlan;
import dev.javelin.backend.spmd.Mesh;
import dev.javelin.backend.spmd.Sharding;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the Qwen3-MoE family decides: which blocks are routed, their tensors, how fsdp and tp split
 * the experts, what LoRA adapts, and the checkpoint forms (per-expert HF matrices).
 */
class Qwen3MoeFamilyTest {
  // 8 experts, top 2 of width 12; every 2nd block routed, but block 3 dense
  private static final Qwen3MoeFamily FAMILY =
      new Qwen3MoeFamily(new MoeFeedForward(8, 2, 12, false), 2, List.of(3), 0.01);
  private static final ModelConfig C =
      new ModelConfig(64, 32, 48, 4, 4, 2, 16, 1e6, 1e-6, false, false, 16, FAMILY);

  @TempDir Path tmp;

  @Test
  void decoderSparseStepAndMlpOnlyLayersChooseTheRoutedBlocks() {
    assertEquals(
        List.of(false, true, false, false),
        List.of(0, 1, 2, 3).stream().map(FAMILY::routed).toList());
    List<String> names = WeightSpec.layout(C).stream().map(WeightSpec::name).toList();
    assertTrue(names.contains("model.layers.1.mlp.experts.gate_up_proj"));
    assertTrue(names.contains("model.layers.0.mlp.gate_proj.weight"));
    assertTrue(names.contains("model.layers.3.mlp.down_proj.weight"));
    assertFalse(names.contains("model.layers.3.mlp.gate.weight"));
    Map<String, Shape> shapes =
        Map.of(
            "model.layers.1.mlp.gate.weight", Shape.of(8, 32),
            "model.layers.1.mlp.experts.gate_up_proj", Shape.of(8, 24, 32),
            "model.layers.1.mlp.experts.down_proj", Shape.of(8, 32, 12));
    shapes.forEach((n, s) -> assertTrue(WeightSpec.layout(C).contains(new WeightSpec(n, s)), n));
  }

  @Test
  void fsdpSplitsTheExpertsAndTpKeepsThemWhole() {
    String gateUp = "model.layers.1.mlp.experts.gate_up_proj";
    Shape s = Shape.of(8, 24, 32);
    assertEquals(Sharding.split(0, "fsdp"), ShardPlan.of(Mesh.of("fsdp", 4), C).of(gateUp, s));
    assertEquals(Sharding.replicated(), ShardPlan.of(Mesh.of("tp", 2), C).of(gateUp, s));
  }

  @Test
  void loraAdaptsTheAttentionAndDenseMlpsNotTheExperts() {
    LoraConfig lora = new LoraConfig(4, 8, Set.copyOf(LoraConfig.MODULES));
    List<LoraConfig.Adapter> adapters = lora.adapters(C);
    // 4 attention projections in every block, 3 MLP projections in the three dense ones
    assertEquals(4 * 4 + 3 * 3, adapters.size());
    assertTrue(adapters.stream().noneMatch(a -> a.base().contains("experts")));
  }

  @Test
  void configJsonRoundTripsTheMoeFields() throws Exception {
    HfFixture.assertWrittenBackAsItself(ModelCheckpoint.random(C, 1, 0.02), tmp.resolve("hf"));
  }

  /**
   * The transformers fixture written back loads as itself; the copy stays in target/hf-writeback
   * for tools/hf_load_check.py (transformers' AutoModelForCausalLM loads it with no missing or
   * unexpected tensor and gives the fixture's logits).
   */
  @Test
  void fixtureWrittenBackLoadsAsItself() {
    ModelCheckpoint ck = HfFixture.load("qwen3-moe-tiny").checkpoint();
    Path dir =
        Path.of(
            System.getProperty("javelin.root"), "tpu-backend/target/hf-writeback/qwen3-moe-tiny");
    HfFixture.assertWrittenBackAsItself(ck, dir);
  }

  /** The written directory has transformers' per-expert names and shapes, gate rows first. */
  @Test
  void writtenCheckpointHoldsOneMatrixPerExpert() {
    Path dir = tmp.resolve("hf");
    ModelCheckpoint ck = ModelCheckpoint.random(C, 2, 0.02);
    ck.save(dir, "qwen3_moe", StorageType.F32);
    Map<String, Tensor> saved = HfCheckpoint.read(dir);
    assertFalse(saved.containsKey("model.layers.1.mlp.experts.gate_up_proj"));
    for (int j = 0; j < 8; j++) {
      String p = "model.layers.1.mlp.experts." + j + ".";
      assertEquals(Shape.of(12, 32), saved.get(p + "gate_proj.weight").shape());
      assertEquals(Shape.of(12, 32), saved.get(p + "up_proj.weight").shape());
      assertEquals(Shape.of(32, 12), saved.get(p + "down_proj.weight").shape());
    }
    float[] stacked = ck.weights().get("model.layers.1.mlp.experts.gate_up_proj").data();
    float[] up7 = ((Tensor.F32) saved.get("model.layers.1.mlp.experts.7.up_proj.weight")).data();
    assertEquals(stacked[7 * 24 * 32 + 12 * 32], up7[0]);
    assertEquals(WeightSpec.layout(C).size() - 2 + 8 * 3, saved.size()); // one routed block
  }
}
