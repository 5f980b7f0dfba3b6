package dev.javelin.backend.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.Shape;
import dev.javelin.backend.program.ShardPlan;
import dev.javelin.backend.spmd.Mesh;
import dev.javelin.backend.spmd.Sharding;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a family decides: names, tensors, LoRA targets, tp splits, relabelling between names. */
class ArchitectureTest {
  // vocab 64, hidden 32, MLP 48, 2 layers, 4 heads, 2 kv heads of 16 (not hidden / heads), tied
  private static final ModelConfig QWEN3 =
      new ModelConfig(64, 32, 48, 2, 4, 2, 16, 1e6, 1e-6, true, false, 16, Qwen3Family.QWEN3);
  private static final ModelConfig LLAMA = QWEN3.withArchitecture(LlamaFamily.LLAMA);

  @Test
  void registryNamesEveryFamilyAndRefusesOthersListingThem() {
    assertEquals(
        List.of("llama", "qwen2", "qwen3", "qwen3_moe", "gemma3_text"), Architectures.modelTypes());
    assertEquals(Qwen3Family.QWEN3, Architectures.byGguf("qwen3").orElseThrow());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Architectures.of("mamba"));
    assertEquals(
        "model_type 'mamba' is not supported [llama, qwen2, qwen3, qwen3_moe, gemma3_text]",
        e.getMessage());
  }

  @Test
  void qwen3AddsPerHeadQkNormsToTheLlamaBlock() {
    List<WeightSpec> q3 = WeightSpec.layout(QWEN3);
    assertTrue(
        q3.contains(new WeightSpec(WeightSpec.layer(1, "self_attn.q_norm.weight"), Shape.of(16))));
    assertTrue(
        q3.contains(new WeightSpec(WeightSpec.layer(1, "self_attn.k_norm.weight"), Shape.of(16))));
    assertTrue(
        q3.contains(
            new WeightSpec(WeightSpec.layer(0, "self_attn.q_proj.weight"), Shape.of(64, 32))));
    assertEquals(WeightSpec.layout(LLAMA).size() + 4, q3.size());
    assertEquals(LLAMA.parameterCount() + 2L * 2 * 16, QWEN3.parameterCount());
  }

  @Test
  void loraTargetsTheFamilysLinearLayersWithTheirShapes() {
    LoraConfig lora = new LoraConfig(4, 8, Set.copyOf(LoraConfig.MODULES));
    List<LoraConfig.Adapter> adapters = lora.adapters(QWEN3);
    assertEquals(2 * 7, adapters.size());
    LoraConfig.Adapter q = adapters.get(0);
    assertEquals("model.layers.0.self_attn.q_proj.lora_A.weight", q.a());
    assertEquals(32, q.in());
    assertEquals(64, q.out()); // 4 heads of 16
    LoraConfig.Adapter o = adapters.get(3);
    assertEquals("o_proj", o.module());
    assertEquals(64, o.in());
  }

  @Test
  void tensorParallelismKeepsTheQkNormsWhole() {
    ShardPlan plan = ShardPlan.of(Mesh.of("tp", 2), QWEN3);
    String qNorm = WeightSpec.layer(0, "self_attn.q_norm.weight");
    assertEquals(Sharding.replicated(), plan.of(qNorm, Shape.of(16)));
    String q = WeightSpec.layer(0, "self_attn.q_proj.weight");
    assertEquals(Sharding.split(0, "tp"), plan.of(q, Shape.of(64, 32)));
  }

  @Test
  void relabellingNeedsTheSameBlock() {
    ModelConfig qwen2 = LLAMA.withQkvBias(true).withArchitecture(LlamaFamily.QWEN2);
    assertEquals(LlamaFamily.LLAMA, qwen2.relabelled(LlamaFamily.LLAMA).architecture());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> QWEN3.relabelled(LlamaFamily.LLAMA));
    assertEquals("a qwen3 model cannot be written as llama", e.getMessage());
  }
}
