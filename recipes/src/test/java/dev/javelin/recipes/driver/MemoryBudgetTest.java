package dev.javelin.recipes.driver;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryBudgetTest {
  /** SmolLM2-135M's shape: 30 layers, hidden 576, 9/3 heads, 49,152 tokens, 8k positions. */
  private static final ModelConfig SMOLLM2 =
      new ModelConfig(
          49152, 576, 1536, 30, 9, 3, 64, 100_000, 1e-5, true, false, 8192, LlamaFamily.LLAMA);

  private static RecipeConfig arith(String... overrides) {
    return Recipes.load("recipes/arith-grpo.yaml", List.of(overrides));
  }

  @Test
  void followsTheModelAndTheBatchNotTheCheckpointsPositions() {
    RecipeConfig r = arith("actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=16");
    MemoryBudget b = MemoryBudget.of(SMOLLM2, r);
    long p = SMOLLM2.parameterCount();
    int ref = r.actor().loss().useKlLoss() ? 1 : 0;
    assertEquals(
        p * 4 * (6 + ref), b.trainer(), "weights, m, v, grad sum, micro grads, snapshot (+ ref)");
    int positions = r.data().maxPromptLength() + r.data().maxResponseLength();
    int rows = Math.min(r.rollout().maxNumSeqs(), r.data().trainBatchSize() * r.rollout().n());
    long kv = 2L * 30 * rows * 3 * positions * 64 * 4;
    assertEquals(r.trainer().samplers() * (p * 4 + kv), b.samplers());
    MemoryBudget bf16 = MemoryBudget.of(SMOLLM2, arith("actor_rollout_ref.rollout.dtype=bf16"));
    assertEquals(r.trainer().samplers() * (p * 8 + kv), bf16.samplers(), "+ the bf16 copy");
    long wire = p * r.rollout().weightDtype().byteSize();
    assertEquals(4 * wire + p * 4, b.weightSync(), "Ray's copies in flight + the new weights");
    // the checkpoint's 8,192 positions play no part: the same model with 256 gives the same budget
    assertEquals(b, MemoryBudget.of(SMOLLM2.withMaxPositions(256), r));
    MemoryBudget twice =
        MemoryBudget.of(SMOLLM2, arith("actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=32"));
    assertEquals(2 * b.activations(), twice.activations());
    assertEquals(2 * b.logits(), twice.logits());
  }

  @Test
  void loraCountsTheFrozenBaseOnceAndOptimizerStateForTheAdaptersOnly() {
    RecipeConfig r =
        arith(
            "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=16",
            "actor_rollout_ref.model.lora_rank=16",
            "actor_rollout_ref.model.target_modules=[q_proj,v_proj]");
    long p = SMOLLM2.parameterCount();
    // q_proj 576 -> 576, v_proj 576 -> 192 (3 KV heads x 64) in each of 30 layers
    long adapters = 30L * 16 * ((576 + 576) + (576 + 192));
    MemoryBudget lora = MemoryBudget.of(SMOLLM2, r);
    assertEquals(12 * p + 20 * adapters, lora.trainer(), "base, merged, snapshot; adapter state");
    long full = MemoryBudget.of(SMOLLM2, arith()).trainer(); // 24-28 B/param
    assertTrue(lora.trainer() < 0.55 * full, lora.trainer() + " vs full " + full);
  }

  @Test
  void loraWithAdapterSyncDoesNotCountAFullModelSyncNextToTheTrainStep() {
    String[] lora = {
      "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=16",
      "actor_rollout_ref.model.lora_rank=16",
      "actor_rollout_ref.model.target_modules=[q_proj,v_proj]"
    };
    RecipeConfig r = arith(lora);
    MemoryBudget adapters = MemoryBudget.of(SMOLLM2, r);
    MemoryBudget full = MemoryBudget.of(SMOLLM2, arith(lora[0]));
    long p = SMOLLM2.parameterCount();
    assertTrue(
        adapters.weightSync() + adapters.activations() + adapters.logits()
            <= full.weightSync() + full.activations() + full.logits(),
        "the first (whole) sync is not live with the step's activations");
    assertTrue(adapters.weightSync() < full.weightSync(), adapters + " vs " + full);
    assertEquals(
        full.samplers() + r.trainer().samplers() * p * 4, adapters.samplers(), "+ each base");
    MemoryBudget merged =
        MemoryBudget.of(
            SMOLLM2,
            arith(lora[0], lora[1], lora[2], "actor_rollout_ref.rollout.lora_sync=merged"));
    assertEquals(full.weightSync(), merged.weightSync(), "a merged sync is the whole model");
  }

  @Test
  void countsTheMemoryOutsideTheHeapAndKeepsTheProcessInsideTheMachine() {
    RecipeConfig r = arith("actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=16");
    MemoryBudget b = MemoryBudget.of(SMOLLM2, r);
    long p = SMOLLM2.parameterCount();
    long holders = r.trainer().samplers() + 1L;
    assertTrue(
        b.offHeap() >= MemoryBudget.FIXED_OFF_HEAP + holders * p * 4,
        "native weight copies of the trainer and each sampler, plus the fixed part: " + b);
    assertTrue(b.describe().contains("outside it"), b.describe());
    long machine = 24L << 30;
    long heap = b.maxHeapOn(machine);
    assertTrue(b.processBytes(heap) <= machine * 0.9 + 1, "heap + GC tables + off-heap fit");
    assertTrue(heap < machine - b.offHeap(), "the cap leaves the memory outside the heap");
    ConfigException small = assertThrows(ConfigException.class, () -> b.check(1L << 40, 2L << 30));
    assertTrue(small.getMessage().contains("more than this machine"), small.getMessage());
    assertTrue(small.getMessage().contains("enable_gradient_checkpointing"), small.getMessage());
    assertTrue(small.getMessage().contains("data.max_prompt_length"), small.getMessage());
    assertDoesNotThrow(() -> b.check(b.total(), 1L << 40));
  }

  @Test
  void anEvalCountsNoTrainStepAndACacheRowPerValidationPrompt() {
    RecipeConfig r = Recipes.load("recipes/gsm8k-eval.yaml", List.of());
    MemoryBudget eval = MemoryBudget.forEval(SMOLLM2, r, 20);
    assertEquals(0, eval.activations());
    assertEquals(0, eval.logits());
    long p = SMOLLM2.parameterCount();
    // no trainer in this JVM: the checkpoint the driver loads and the snapshot it publishes
    assertEquals(p * 4 + p * r.rollout().weightDtype().byteSize(), eval.trainer());
    int positions = r.data().maxPromptLength() + r.data().maxResponseLength();
    long kv = 2L * 30 * 20 * 3 * positions * 64 * 4;
    assertEquals(r.trainer().samplers() * (p * 4 + kv), eval.samplers());
    // SmolLM2's eval died with OutOfMemoryError in the launcher's default 4g heap: refused first
    assertThrows(ConfigException.class, () -> eval.check(4L << 30));
    assertTrue(eval.total() < (8L << 30), "a 20-prompt eval needs no run-sized heap");
    assertDoesNotThrow(() -> eval.check(eval.wantedHeap()));
  }

  @Test
  void gradientCheckpointingKeepsOneHiddenStatePerLayer() {
    String micro = "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=16";
    RecipeConfig on = arith(micro, "actor_rollout_ref.model.enable_gradient_checkpointing=true");
    assertEquals(dev.javelin.backend.graph.Remat.BLOCKS, on.model().remat());
    long kept = MemoryBudget.of(SMOLLM2, on).activations();
    long full = MemoryBudget.of(SMOLLM2, arith(micro)).activations();
    assertTrue(kept * 3 < full, "blocks " + kept + " vs elementwise " + full);
  }

  @Test
  void aHeapTooSmallFailsBeforeTheFirstStepNamingTheKnobs() {
    MemoryBudget b = MemoryBudget.of(SMOLLM2, arith());
    ConfigException e = assertThrows(ConfigException.class, () -> b.check(1L << 30));
    assertTrue(e.getMessage().contains("JAVELIN_HEAP="), e.getMessage());
    assertTrue(e.getMessage().contains("ppo_micro_batch_size_per_gpu"), e.getMessage());
    assertDoesNotThrow(() -> b.check(b.total()));
  }

  @Test
  void theSyntheticRecipesFitTheLaunchersDefaultHeap() {
    for (String recipe :
        List.of(
            "recipes/arith-grpo.yaml", "recipes/arith-sft.yaml", "recipes/countdown-grpo.yaml")) {
      RecipeConfig r =
          Recipes.load(
              recipe,
              List.of(
                  "actor_rollout_ref.model.path=null",
                  "actor_rollout_ref.model.warmup_recipe=null"));
      MemoryBudget b = MemoryBudget.of(ModelInit.config(r), r);
      System.out.println(recipe + ": " + b.describe());
      assertDoesNotThrow(() -> b.check(4L << 30), recipe); // the launcher's default heap
    }
  }
}
