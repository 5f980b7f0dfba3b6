package dev.javelin.recipes.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.model.LoraConfig;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LoraKeysTest {
  private static final String P = "actor_rollout_ref.model.";

  private static RecipeConfig load(String... overrides) {
    return Recipes.load("recipes/arith-grpo.yaml", List.of(overrides));
  }

  @Test
  void rankZeroIsFullFineTuning() {
    assertEquals(LoraConfig.NONE, LoraKeys.from(load().settings()));
  }

  @Test
  void verlKeysSelectTheAdapters() {
    RecipeConfig c = load(P + "lora_rank=16", P + "lora_alpha=32");
    assertEquals(
        new LoraConfig(16, 32, Set.copyOf(LoraConfig.MODULES)), LoraKeys.from(c.settings()));
    RecipeConfig some =
        load(
            P + "lora_rank=8",
            P + "target_modules=[q_proj,v_proj,down_proj]",
            P + "exclude_modules=[down_proj]");
    assertEquals(new LoraConfig(8, 16, Set.of("q_proj", "v_proj")), LoraKeys.from(some.settings()));
  }

  @Test
  void dropoutAndSyncKeys() {
    RecipeConfig c = load(P + "lora_rank=4", P + "lora_dropout=0.05");
    assertEquals(
        new LoraConfig(4, 16, Set.copyOf(LoraConfig.MODULES), 0.05), LoraKeys.from(c.settings()));
    assertTrue(LoraKeys.syncsAdapters(c.settings()), "adapters is the default");
    assertFalse(
        LoraKeys.syncsAdapters(load("actor_rollout_ref.rollout.lora_sync=merged").settings()));
  }

  @Test
  void useShmIsAcceptedWithANote() {
    RecipeConfig c = load(P + "use_shm=true");
    assertTrue(
        c.settings().noEffectNotes().stream().anyMatch(n -> n.contains("use_shm")),
        c.settings().noEffectNotes().toString());
  }

  @Test
  void badValuesNameTheKey() {
    for (String[] bad :
        List.of(
            new String[] {P + "lora_rank=-1", "lora_rank"},
            new String[] {P + "lora_rank=4 " + P + "lora_alpha=0", "lora_alpha"},
            new String[] {P + "lora_rank=4 " + P + "target_modules=[qproj]", "target_modules"},
            new String[] {P + "lora_rank=4 " + P + "exclude_modules=[lm_head]", "exclude_modules"},
            new String[] {
              P + "lora_rank=4 " + P + "target_modules=[q_proj] " + P + "exclude_modules=[q_proj]",
              "target_modules"
            },
            new String[] {P + "lora_rank=4 " + P + "lora_dropout=1", "lora_dropout"},
            new String[] {P + "lora_rank=4 " + P + "lora_dropout=-0.1", "lora_dropout"},
            new String[] {"actor_rollout_ref.rollout.lora_sync=both", "lora_sync"})) {
      ConfigException e =
          assertThrows(ConfigException.class, () -> load(bad[0].split(" ")), bad[0]);
      assertTrue(e.getMessage().contains(bad[1]), e.getMessage());
    }
  }
}
