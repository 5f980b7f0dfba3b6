package dev.javelin.rewards.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardResult;
import org.junit.jupiter.api.Test;

class Gsm8kRewardTest {

  private static final Gsm8kReward STRICT =
      new Gsm8kReward(new Gsm8kReward.Params(Gsm8kReward.Method.STRICT, 0.1, 1.0));
  private static final Gsm8kReward FLEXIBLE =
      new Gsm8kReward(new Gsm8kReward.Params(Gsm8kReward.Method.FLEXIBLE, 0.0, 1.0));

  private static double score(Gsm8kReward r, String response, String gt) {
    return r.score(RewardInput.of("openai/gsm8k", response, gt)).score();
  }

  @Test
  void strictNeedsTheMarkerAndTakesTheLastOne() {
    assertEquals(1.0, score(STRICT, "so 3+4=7\n#### 7", "7"));
    assertEquals(1.0, score(STRICT, "#### 5 then corrected #### 1,234", "1234"));
    assertEquals(0.1, score(STRICT, "#### 8", "7"));
    assertEquals(0.0, score(STRICT, "the answer is 7", "7"));
    assertEquals(0.0, score(STRICT, "####7", "7")); // VeRL needs the space
    assertEquals(1.0, score(STRICT, "#### -3", "-3"));
    assertEquals(1.0, score(STRICT, "#### 7.00", "7")); // exact value, unlike VeRL's strings
  }

  @Test
  void onlyTheLast300CharactersAreSearched() {
    String early = "#### 7\n" + "x".repeat(400);
    assertEquals(0.0, score(STRICT, early, "7"));
  }

  @Test
  void flexibleTakesTheLastNumberWithADigit() {
    assertEquals(1.0, score(FLEXIBLE, "She pays $1,200 in total.", "1200"));
    assertEquals(1.0, score(FLEXIBLE, "first 3, then 18, ...", "18"));
    assertEquals(0.0, score(FLEXIBLE, "no number here", "18"));
    assertNull(Gsm8kScan.flexible("just . and , here"));
  }

  @Test
  void fullSolutionGroundTruthAndExtras() {
    RewardResult r = STRICT.score(RewardInput.of("openai/gsm8k", "#### 18", "9 * 2 = 18\n#### 18"));
    assertEquals(1.0, r.score());
    assertEquals(true, r.extras().get("acc"));
    assertEquals("18", r.extras().get("pred"));
    assertEquals(true, r.extras().get("format_ok"));
  }
}
