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
 * counts.
 */
class RewardFuzzTest {
  private static final RewardRegistry REGISTRY = RewardRegistry.load();

  @FuzzTest(maxDuration = "20s")
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
  }
}
