package dev.javelin.rewards.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardResult;
import org.junit.jupiter.api.Test;

class MathRewardTest {

  private static final MathReward MATH = new MathReward(1.0, 0.0);

  private static RewardResult score(String response, String gt) {
    return MATH.score(RewardInput.of("math500", response, gt));
  }

  @Test
  void takesTheLastBoxWithBraceMatching() {
    assertEquals(1.0, score("first \\boxed{1}, finally $\\boxed{\\frac{1}{2}}$.", "0.5").score());
    assertEquals(0.0, score("\\boxed{1/2} then \\boxed{1}", "\\frac12").score());
    assertEquals(1.0, score("\\boxed{\\{1, 2\\}}", "\\{2,1\\}").score());
    assertEquals(
        1.0, score("\\boxed{\\left( 3, \\frac{\\pi}{2} \\right)}", "(3,\\frac{\\pi}{2})").score());
  }

  @Test
  void boxedWithSpaceAndFbox() {
    assertEquals(1.0, score("so $\\boxed 5$ it is", "5").score());
    assertEquals(1.0, score("\\fbox{42}", "42").score());
  }

  @Test
  void missingOrUnbalancedBoxScoresZero() {
    RewardResult none = score("the answer is 5", "5");
    assertEquals(0.0, none.score());
    assertEquals(false, none.extras().get("format_ok"));
    assertEquals(0.0, score("\\boxed{5", "5").score());
  }

  @Test
  void groundTruthMayBeAFullSolution() {
    assertEquals(1.0, score("\\boxed{7}", "so it is $\\boxed{7}$.").score());
  }

  @Test
  void extrasReportPrediction() {
    RewardResult r = score("\\boxed{x = 3}", "3");
    assertEquals(1.0, r.score());
    assertEquals("x = 3", r.extras().get("pred"));
    assertEquals(true, r.extras().get("acc"));
  }
}
