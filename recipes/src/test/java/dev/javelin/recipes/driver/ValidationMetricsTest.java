package dev.javelin.recipes.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.rewards.RewardResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** VeRL's validation statistics on hand-made scores. */
class ValidationMetricsTest {
  private static ValidationMetrics.Response r(double acc, String pred) {
    return Validator.record(new RewardResult(acc, Map.of("acc", acc > 0, "pred", pred)));
  }

  @Test
  void greedyPassReportsMeanAtOnePerSource() {
    List<ValidationMetrics.Response> rs =
        List.of(
            r(1, "5"),
            r(0, "7"),
            Validator.record(new RewardResult(0.5, Map.of())),
            Validator.record(new RewardResult(-0.5, Map.of())));
    Map<String, Double> m =
        ValidationMetrics.compute(List.of("gsm8k", "gsm8k", "arith", "arith"), 1, rs);
    // acc is gsm8k's core variable; arith reports none, so its score is.
    assertEquals(0.5, m.get("val-core/gsm8k/acc/mean@1"));
    assertEquals(0.5, m.get("val-aux/gsm8k/reward/mean@1"));
    assertEquals(0.0, m.get("val-core/arith/reward/mean@1"));
    assertEquals(3, m.size(), m.toString());
  }

  @Test
  void bestWorstAndMajorityOverFourSamples() {
    // Prompt 1: answers 5,5,7,9 with only "5" right; prompt 2: every sample right.
    List<ValidationMetrics.Response> rs = new ArrayList<>();
    rs.addAll(List.of(r(1, "5"), r(1, "5"), r(0, "7"), r(0, "9")));
    rs.addAll(List.of(r(1, "3"), r(1, "3"), r(1, "3"), r(1, "3")));
    Map<String, Double> m = ValidationMetrics.compute(List.of("s", "s"), 4, rs);
    assertEquals(0.75, m.get("val-core/s/acc/mean@4"), 1e-12);
    // std@4 per prompt: 0.5 and 0, averaged over the prompts.
    assertEquals(0.25, m.get("val-aux/s/acc/std@4"), 1e-12);
    // best@2 of one prompt with p = 1/2 right: 1 − (1/2)² = 3/4; worst@2: 1/4. The second
    // prompt gives 1 for both; bootstrap noise at 1000 resamples is about ±0.03.
    assertEquals((0.75 + 1) / 2, m.get("val-aux/s/acc/best@2/mean"), 0.03);
    assertEquals((0.25 + 1) / 2, m.get("val-aux/s/acc/worst@2/mean"), 0.03);
    // best@4 and maj@4 are the core statistics at n = 4.
    assertEquals((1 - Math.pow(0.5, 4) + 1) / 2, m.get("val-core/s/acc/best@4/mean"), 0.03);
    assertTrue(m.containsKey("val-core/s/acc/maj@4/mean"));
    assertTrue(m.containsKey("val-aux/s/acc/maj@2/std"));
    assertTrue(m.containsKey("val-aux/s/reward/best@4/mean"));
    assertFalse(m.containsKey("val-core/s/reward/best@4/mean"), "reward is aux when acc exists");
    // The all-right prompt has no spread: its best/worst std are 0, the other's is not.
    double bestStd = m.get("val-aux/s/acc/best@2/std");
    assertEquals(Math.sqrt(0.75 * 0.25) / 2, bestStd, 0.03);
  }

  @Test
  void majorityTakesTheFirstValueOfTheMostFrequentAnswer() {
    assertEquals(1.0, ValidationMetrics.majority(List.of("a", "b", "a"), new double[] {1, 0, 0}));
    // A tie goes to the answer seen first.
    assertEquals(0.0, ValidationMetrics.majority(List.of("b", "a"), new double[] {0, 1}));
    // Majority of 5,5,7 on "5 right": the majority is right even though one sample is not.
    List<ValidationMetrics.Response> rs = List.of(r(1, "5"), r(1, "5"), r(0, "7"));
    Map<String, Double> m = ValidationMetrics.compute(List.of("s"), 3, rs);
    assertEquals(2.0 / 3, m.get("val-core/s/acc/mean@3"), 1e-12);
    // maj@3 of a resample is wrong only when "7" is drawn 2 or 3 times: 3·(1/3)²·(2/3) + (1/3)³.
    assertEquals(20.0 / 27, m.get("val-core/s/acc/maj@3/mean"), 0.03);
  }

  @Test
  void withoutPredThereIsNoMajority() {
    List<ValidationMetrics.Response> rs = new ArrayList<>();
    for (double s : new double[] {0.2, 0.4}) {
      rs.add(Validator.record(new RewardResult(s, Map.of())));
    }
    Map<String, Double> m = ValidationMetrics.compute(List.of("s"), 2, rs);
    assertEquals(0.3, m.get("val-core/s/reward/mean@2"), 1e-12);
    assertEquals(0.1, m.get("val-aux/s/reward/std@2"), 1e-12);
    assertTrue(m.get("val-core/s/reward/best@2/mean") > 0.3);
    assertTrue(m.get("val-aux/s/reward/worst@2/mean") < 0.3);
    assertFalse(m.keySet().stream().anyMatch(k -> k.contains("maj@")), m.toString());
    assertEquals(List.of(2, 4, 8, 10), ValidationMetrics.subsetSizes(10));
    assertEquals(List.of(2), ValidationMetrics.subsetSizes(2));
  }
}
