package dev.javelin.rewards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DataSourceDispatcherTest {

  private final RewardRegistry registry = RewardRegistry.load();

  @Test
  void routesEveryDefaultSource() {
    DataSourceDispatcher d = DataSourceDispatcher.withDefaults(registry, Map.of());
    assertEquals(1.0, d.score(RewardInput.of("openai/gsm8k", "#### 72", "72")).score());
    for (String src :
        List.of(
            "lighteval/MATH",
            "DigitalLearningGmbH/MATH-lighteval",
            "HuggingFaceH4/MATH-500",
            "math500",
            "math")) {
      assertEquals(1.0, d.score(RewardInput.of(src, "\\boxed{0.5}", "\\frac12")).score(), src);
    }
    for (String src : List.of("math_dapo", "BytedTsinghua-SIA/DAPO-Math-17k")) {
      assertEquals(-1.0, d.score(RewardInput.of(src, "Answer: 3", "4")).score(), src);
      assertEquals(1.0, d.score(RewardInput.of(src, "Answer: 4", "4")).score(), src);
    }
    String gt = "{\"target\": 10, \"numbers\": [2, 3, 4]}";
    for (String src : List.of("synthetic/countdown", "countdown")) {
      assertEquals(1.0, d.score(RewardInput.of(src, "<answer>2*3+4</answer>", gt)).score(), src);
    }
    assertEquals(1.0, d.score(RewardInput.of("synthetic/arith", " 42\nbecause", "42")).score());
  }

  @Test
  void unknownSourceFailsAtConfigurationTimeListingKnownOnes() {
    DataSourceDispatcher d = DataSourceDispatcher.withDefaults(registry, Map.of());
    d.validate(List.of("openai/gsm8k", "math500"));
    RewardConfigException e =
        assertThrows(
            RewardConfigException.class, () -> d.validate(List.of("openai/gsm8k", "mmlu")));
    assertTrue(
        e.getMessage().contains("[mmlu]") && e.getMessage().contains("openai/gsm8k"),
        e.getMessage());
  }

  @Test
  void unknownSourceMidRunScoresZeroThroughTheScorer() {
    DataSourceDispatcher d = DataSourceDispatcher.withDefaults(registry, Map.of());
    try (RewardScorer s =
        new RewardScorer(d, new RewardScorerConfig(1, Duration.ofSeconds(5), 1))) {
      ScoredBatch b = s.scoreAll(List.of(RewardInput.of("mmlu", "A", "A")));
      assertEquals(0.0, b.results().get(0).score());
      assertEquals(1.0, b.metrics().get("reward/errors"));
    }
  }

  @Test
  void recipeRoutesAndPerFunctionKwargs() {
    DataSourceDispatcher d =
        DataSourceDispatcher.withDefaults(
            registry,
            Map.of(
                "routes", Map.of("my/gsm", "gsm8k"),
                "gsm8k", Map.of("method", "flexible", "format_score", 0.1)));
    assertEquals(1.0, d.score(RewardInput.of("my/gsm", "it is 72.", "72")).score());
    assertEquals(0.1, d.score(RewardInput.of("openai/gsm8k", "it is 71.", "72")).score());
    RewardConfigException e =
        assertThrows(
            RewardConfigException.class,
            () -> DataSourceDispatcher.withDefaults(registry, Map.of("gsm9k", Map.of())));
    assertTrue(e.getMessage().contains("gsm9k"), e.getMessage());
  }
}
