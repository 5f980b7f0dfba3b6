package dev.javelin.rewards;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.javelin.rewards.math.MathEquivalence;
import java.util.Map;

/**
 * Contract: every built-in reward scores any model output with a finite score (model output is
 * untrusted; answers are parsed, never evaluated as code). The only exception allowed is {@link
 * IllegalArgumentException} for a ground truth of the wrong form, a dataset error the scorer
 * counts. Countdown also scores every output against a well-formed puzzle, so that its expression
 * parser sees the fuzzed text even when the fuzzed ground truth is no puzzle.
 */
class RewardFuzzTest {
  private static final RewardRegistry REGISTRY = RewardRegistry.load();
  private static final String PUZZLE = "{\"target\": 24, \"numbers\": [3, 4, 6, 1]}";

  @FuzzTest(maxDuration = "12s")
  void everyBuiltInRewardScoresAnyOutput(FuzzedDataProvider data) {
    String truth = data.consumeString(64);
    String response = data.consumeRemainingAsString();
    MathEquivalence.equivalent(response, truth);
    for (String name : REGISTRY.names()) {
      RewardFunction f;
      try {
        f = REGISTRY.create(name, Map.of());
      } catch (RewardConfigException needsKwargs) {
        continue; // a reward that needs keyword arguments is not built from nothing
      }
      RewardResult r;
      try {
        r = f.score(RewardInput.of(name, response, truth));
      } catch (IllegalArgumentException badGroundTruth) {
        continue;
      }
      assertTrue(Double.isFinite(r.score()), name + " gave " + r.score());
    }
    RewardResult countdown =
        REGISTRY.create("countdown", Map.of()).score(RewardInput.of("countdown", response, PUZZLE));
    assertTrue(Double.isFinite(countdown.score()), "countdown gave " + countdown.score());
  }
}
