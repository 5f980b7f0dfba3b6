package dev.javelin.rewards.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.math.MinervaNormalizer;
import org.junit.jupiter.api.Test;

class MathDapoRewardTest {

  private static final MathDapoReward DAPO = new MathDapoReward(false, true);
  private static final MathDapoReward VERL_ONLY = new MathDapoReward(false, false);

  private static double score(MathDapoReward r, String response, String gt) {
    return r.score(RewardInput.of("math_dapo", response, gt)).score();
  }

  @Test
  void answerLineIsCaseInsensitiveAndTheLastOneWins() {
    assertEquals(1.0, score(DAPO, "work...\nANSWER: 34", "34"));
    assertEquals(1.0, score(DAPO, "Answer: 3\nso\nanswer : 34", "34"));
    assertEquals(-1.0, score(DAPO, "no final line", "34"));
    assertEquals(-1.0, score(DAPO, "Answer: 35", "34"));
  }

  @Test
  void minervaNormalisation() {
    assertEquals("1000", MinervaNormalizer.normalize("1,000"));
    assertEquals("5", MinervaNormalizer.normalize("x = 5"));
    assertEquals("\\frac{1}{2}", MinervaNormalizer.normalize("$\\frac12$"));
    assertEquals("10", MinervaNormalizer.normalize("10 dollars"));
    assertEquals("\\sqrt{3}", MinervaNormalizer.normalize("\\sqrt3"));
    assertEquals("Evelyn", MinervaNormalizer.normalize("\\text{Evelyn}"));
    assertEquals(1.0, score(VERL_ONLY, "Answer: $1,000$", "1000"));
  }

  @Test
  void equivalenceAcceptsEqualValuesThatStringsMiss() {
    assertEquals(-1.0, score(VERL_ONLY, "Answer: 0.5", "\\frac{1}{2}"));
    assertEquals(1.0, score(DAPO, "Answer: 0.5", "\\frac{1}{2}"));
  }

  @Test
  void strictBoxVerifyComparesTheLastBoxVerbatim() {
    MathDapoReward strict = new MathDapoReward(true, true);
    assertEquals(1.0, score(strict, "so \\boxed{34}", "34"));
    assertEquals(-1.0, score(strict, "so \\boxed{34.0}", "34"));
  }
}
