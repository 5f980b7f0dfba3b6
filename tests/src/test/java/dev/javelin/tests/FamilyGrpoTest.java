package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.model.Architecture;
import dev.javelin.backend.model.Architectures;
import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.Qwen3MoeFamily;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.grpo.MetricNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every family beyond Llama/Qwen2 trains: two GRPO steps of a tiny random model of that {@code
 * model_type} with LoRA on its linear layers, in Ray local mode (a trainer and a sampler actor that
 * learns the family from the config.json it is sent); the checkpoint is an HF directory of the same
 * family, with every tensor the family has, and a PEFT adapter. For {@code qwen3_moe} that is 4
 * experts, top 2, every block routed, the adapters on the attention projections, with the router's
 * load-balancing loss added to the actor loss ({@code router_aux_loss_coef}) and reported every
 * step as {@code actor/aux_loss}, which dense families do not report.
 */
class FamilyGrpoTest {

  static Stream<Architecture> families() {
    return Architectures.ALL.stream().filter(a -> !(a instanceof LlamaFamily));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("families")
  void twoGrpoStepsWithLoraInRayLocalMode(Architecture family, @TempDir Path dir)
      throws IOException {
    boolean moe = family instanceof Qwen3MoeFamily;
    List<String> overrides =
        new ArrayList<>(
            List.of(
                "actor_rollout_ref.model.model_type=" + family.modelType(),
                "actor_rollout_ref.model.lora_rank=4",
                "trainer.ray=local",
                "trainer.save_freq=2"));
    if (moe) {
      overrides.add("+actor_rollout_ref.model.override_config.router_aux_loss_coef=0.01");
    }
    TinyRuns.runTiny("recipes/arith-grpo.yaml", dir, 2, overrides.toArray(String[]::new));
    Map<Integer, Double> aux = TinyRuns.series(dir, MetricNames.AUX_LOSS);
    if (moe) {
      assertEquals(Set.of(1, 2), aux.keySet(), "the load-balancing loss every step");
      aux.values().forEach(v -> assertTrue(v > 0 && Double.isFinite(v), "aux loss " + v));
    } else {
      assertEquals(Map.of(), aux, "a dense model reports no load-balancing loss");
    }
    Path step = dir.resolve("global_step_2");
    ModelCheckpoint saved = ModelCheckpoint.load(step);
    assertEquals(family, saved.config().architecture());
    Map<String, ?> weights = saved.weights();
    for (WeightSpec s : WeightSpec.layout(saved.config())) {
      assertTrue(weights.containsKey(s.name()), s.name());
    }
    assertTrue(
        Files.isRegularFile(step.resolve("lora_adapter/adapter_model.safetensors")),
        "PEFT adapter in " + step);
  }
}
