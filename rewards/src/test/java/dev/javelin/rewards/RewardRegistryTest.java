package dev.javelin.rewards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RewardRegistryTest {

  private final RewardRegistry registry = RewardRegistry.load();

  @Test
  void findsBuiltInsAndTestProvidersSkippingBrokenEntries() {
    assertTrue(
        registry
            .names()
            .containsAll(
                List.of(
                    "gsm8k",
                    "math",
                    "math_dapo",
                    "countdown",
                    "format",
                    "weighted",
                    "exact_match",
                    "test_length")),
        "names: " + registry.names());
    RewardFunction f = registry.create("test_length", Map.of("scale", 2));
    assertEquals(6.0, f.score(RewardInput.of("x", "abc", "")).score());
  }

  @Test
  void unknownNameListsTheRegisteredOnes() {
    RewardConfigException e =
        assertThrows(RewardConfigException.class, () -> registry.create("gsm9k", Map.of()));
    assertTrue(
        e.getMessage().contains("gsm9k") && e.getMessage().contains("gsm8k"), e.getMessage());
  }

  @Test
  void badKwargsNameTheKey() {
    RewardConfigException e =
        assertThrows(
            RewardConfigException.class, () -> registry.create("gsm8k", Map.of("methd", "strict")));
    assertTrue(
        e.getMessage().contains("methd") && e.getMessage().contains("method"), e.getMessage());
    e =
        assertThrows(
            RewardConfigException.class, () -> registry.create("gsm8k", Map.of("score", "high")));
    assertTrue(e.getMessage().contains("'score'"), e.getMessage());
    e =
        assertThrows(
            RewardConfigException.class, () -> registry.create("gsm8k", Map.of("method", "loose")));
    assertTrue(e.getMessage().contains("strict"), e.getMessage());
  }

  @Test
  void recipeClassNameWithMapConstructorProviderOrNoArg() {
    RewardFunction byClass =
        registry.resolve(
            RewardSpec.fromRecipe(
                Map.of(
                    "class", LengthReward.class.getName(), "reward_kwargs", Map.of("scale", 0.5))));
    assertEquals(2.0, byClass.score(RewardInput.of("x", "abcd", "")).score());
    RewardFunction byProvider =
        registry.createFromClass(LengthReward.Provider.class.getName(), Map.of());
    assertEquals(4.0, byProvider.score(RewardInput.of("x", "abcd", "")).score());
    RewardFunction noArg = registry.createFromClass(LengthReward.Constant.class.getName(), null);
    assertEquals(0.5, noArg.score(RewardInput.of("x", "", "")).score());
  }

  @Test
  void recipeErrorsAreClear() {
    assertTrue(
        assertThrows(
                RewardConfigException.class,
                () -> registry.createFromClass("com.example.Missing", Map.of()))
            .getMessage()
            .contains("com.example.Missing"));
    assertTrue(
        assertThrows(
                RewardConfigException.class,
                () -> registry.createFromClass(String.class.getName(), Map.of()))
            .getMessage()
            .contains("neither"));
    assertTrue(
        assertThrows(
                RewardConfigException.class,
                () ->
                    registry.createFromClass(LengthReward.Constant.class.getName(), Map.of("x", 1)))
            .getMessage()
            .contains("cannot take keyword arguments"));
    assertTrue(
        assertThrows(RewardConfigException.class, () -> RewardCode.open("my_reward.py"))
            .getMessage()
            .contains("is a Python file"));
    assertTrue(
        assertThrows(
                RewardConfigException.class, () -> RewardSpec.fromRecipe(Map.of("nmae", "math")))
            .getMessage()
            .contains("nmae"));
  }

  @Test
  void recipeByNameAndDefaultDispatcher() {
    RewardFunction math =
        registry.resolve(RewardSpec.fromRecipe(Map.of("name", "math", "reward_kwargs", Map.of())));
    assertEquals("math", math.name());
    RewardFunction dispatch = registry.resolve(RewardSpec.fromRecipe(null));
    assertInstanceOf(DataSourceDispatcher.class, dispatch);
  }

  @Test
  void weightedCombinesRegisteredFunctions() {
    Map<String, Object> kwargs = new LinkedHashMap<>();
    kwargs.put(
        "components",
        List.of(
            Map.of("name", "math", "weight", 0.9),
            Map.of(
                "name", "format", "weight", 0.1, "reward_kwargs", Map.of("think_tag", "think"))));
    RewardFunction w = registry.create("weighted", kwargs);
    RewardResult good = w.score(RewardInput.of("math", "<think>easy</think> so \\boxed{4}", "4"));
    assertEquals(1.0, good.score(), 1e-12);
    assertEquals(true, good.extras().get("acc"));
    assertEquals(1.0, good.extras().get("format/score"));
    RewardResult noFormat = w.score(RewardInput.of("math", "\\boxed{4}", "4"));
    assertEquals(0.9, noFormat.score(), 1e-12);
    assertThrows(
        RewardConfigException.class,
        () -> registry.create("weighted", Map.of("components", List.of(Map.of("weight", 1)))));
  }
}
