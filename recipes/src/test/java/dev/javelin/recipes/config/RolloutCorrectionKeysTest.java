package dev.javelin.recipes.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.grpo.RolloutCorrectionConfig;
import dev.javelin.grpo.RolloutCorrectionConfig.IsLevel;
import java.util.List;
import org.junit.jupiter.api.Test;

class RolloutCorrectionKeysTest {
  private static RolloutCorrectionConfig rc(String... overrides) {
    RecipeConfig c = Recipes.load("recipes/arith-grpo.yaml", List.of(overrides));
    RolloutCorrectionConfig fromActor = c.actor().loss().policyLoss().rolloutCorrection();
    assertEquals(fromActor, c.algorithm().rolloutCorrection(), "actor and algorithm agree");
    return fromActor;
  }

  @Test
  void syncHasNoCorrectionByDefault() {
    assertFalse(rc().enabled());
  }

  @Test
  void oneStepOffDefaultsToTokenTisWithVerlThreshold() {
    RolloutCorrectionConfig c = rc("trainer.rollout_mode=one_step_off");
    assertEquals(IsLevel.TOKEN, c.rolloutIs());
    assertEquals(2.0, c.rolloutIsThreshold());
    assertTrue(
        RolloutCorrectionKeys.defaultedByOneStepOff(
            Recipes.load("recipes/arith-grpo.yaml", List.of("trainer.rollout_mode=one_step_off"))
                .settings()));
  }

  @Test
  void recipeChoiceWinsOverTheDefault() {
    RolloutCorrectionConfig c =
        rc(
            "trainer.rollout_mode=one_step_off",
            "algorithm.rollout_correction.rollout_is=sequence",
            "algorithm.rollout_correction.rollout_is_threshold=3.5");
    assertEquals(IsLevel.SEQUENCE, c.rolloutIs());
    assertEquals(3.5, c.rolloutIsThreshold());
    assertEquals(
        IsLevel.OFF,
        rc("trainer.rollout_mode=one_step_off", "algorithm.rollout_correction.rollout_is=none")
            .rolloutIs());
  }

  @Test
  void badValuesNameTheKey() {
    ConfigException e =
        assertThrows(
            ConfigException.class,
            () ->
                Recipes.load(
                    "recipes/arith-grpo.yaml",
                    List.of("algorithm.rollout_correction.rollout_is_threshold=0")));
    assertTrue(e.getMessage().contains("rollout_is_threshold"), e.getMessage());
    e =
        assertThrows(
            ConfigException.class,
            () ->
                Recipes.load(
                    "recipes/arith-grpo.yaml",
                    List.of("algorithm.rollout_correction.rollout_rs=token_k1")));
    assertTrue(e.getMessage().contains("rollout_rs_threshold"), e.getMessage());
  }
}
