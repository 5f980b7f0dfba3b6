package dev.javelin.recipes.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import java.util.List;
import org.junit.jupiter.api.Test;

class MixedPrecisionKeysTest {
  private static final String P = "actor_rollout_ref.actor.fsdp_config.";

  private static DType computeDType(String... overrides) {
    return MixedPrecisionKeys.computeDType(
        Recipes.load("recipes/arith-grpo.yaml", List.of(overrides)).settings());
  }

  @Test
  void theDefaultFollowsTheDevice() {
    assertEquals(DType.F32, computeDType());
    assertEquals(DType.F32, computeDType("trainer.device=xla:cpu"));
    assertEquals(DType.BF16, computeDType("trainer.device=tpu"));
    assertEquals(DType.BF16, computeDType("trainer.device=xla:gpu"));
  }

  @Test
  void paramDtypeChoosesTheComputeType() {
    assertEquals(DType.BF16, computeDType(P + "mixed_precision.param_dtype=bf16"));
    assertEquals(DType.BF16, computeDType(P + "mixed_precision.param_dtype=bfloat16"));
    assertEquals(
        DType.F32, computeDType("trainer.device=tpu", P + "mixed_precision.param_dtype=fp32"));
  }

  @Test
  void bf16ReductionsAndBuffersAreRefusedByName() {
    for (String key : List.of("reduce_dtype", "buffer_dtype")) {
      ConfigException e =
          assertThrows(
              ConfigException.class, () -> computeDType(P + "mixed_precision." + key + "=bf16"));
      assertTrue(e.getMessage().contains(key) && e.getMessage().contains("fp32"), e.getMessage());
    }
    ConfigException bad =
        assertThrows(
            ConfigException.class, () -> computeDType(P + "mixed_precision.param_dtype=fp16"));
    assertTrue(bad.getMessage().contains("param_dtype"), bad.getMessage());
  }

  private static DType rolloutDType(String... overrides) {
    return Recipes.load("recipes/arith-grpo.yaml", List.of(overrides)).rollout().dtype();
  }

  @Test
  void rolloutDtypeFollowsTheSameDeviceRuleOnItsOwn() {
    assertEquals(DType.F32, rolloutDType());
    assertEquals(DType.F32, rolloutDType("trainer.device=xla:cpu"));
    assertEquals(DType.BF16, rolloutDType("trainer.device=tpu"));
    assertEquals(DType.BF16, rolloutDType("trainer.device=xla:gpu"));
    assertEquals(DType.BF16, rolloutDType("actor_rollout_ref.rollout.dtype=bf16"));
    assertEquals(DType.BF16, rolloutDType("actor_rollout_ref.rollout.dtype=bfloat16"));
    assertEquals(
        DType.F32, rolloutDType("trainer.device=tpu", "actor_rollout_ref.rollout.dtype=float32"));
    // the trainer's type and the weight-sync wire are other keys
    assertEquals(DType.F32, rolloutDType(P + "mixed_precision.param_dtype=bf16"));
    assertEquals(DType.F32, rolloutDType("actor_rollout_ref.rollout.weight_dtype=bf16"));
    assertEquals(
        DType.F32,
        computeDType("actor_rollout_ref.rollout.dtype=bf16"),
        "rollout.dtype leaves the trainer in f32");
  }

  @Test
  void aBadRolloutDtypeIsOneLineNamingTheKey() {
    ConfigException e =
        assertThrows(
            ConfigException.class, () -> rolloutDType("actor_rollout_ref.rollout.dtype=fp16"));
    String m = e.getMessage();
    assertTrue(m.contains("actor_rollout_ref.rollout.dtype") && m.contains("bf16"), m);
    assertFalse(m.strip().contains("\n"), m);
  }

  @Test
  void otherFsdpKeysStillHaveNoEffect() {
    RecipeConfig c =
        Recipes.load(
            "recipes/arith-grpo.yaml",
            List.of(P + "param_offload=true", P + "mixed_precision.param_dtype=bf16"));
    List<String> notes = c.settings().noEffectNotes();
    assertTrue(notes.stream().anyMatch(n -> n.contains("param_offload")), notes.toString());
    assertTrue(notes.stream().noneMatch(n -> n.contains("param_dtype")), notes.toString());
  }
}
