package dev.javelin.rewards.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.javelin.rewards.RewardInput;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CountdownRewardTest {

  private static final CountdownReward R = new CountdownReward(1.0, 0.1);
  private static final String GT = "{\"target\": 24, \"numbers\": [4, 6, 1, 1]}";

  private static double score(String response) {
    return R.score(RewardInput.of("countdown", response, GT)).score();
  }

  @Test
  void correctEquationUsesEachNumberOnce() {
    assertEquals(1.0, score("<think>..</think><answer>4 * 6 * 1 * 1</answer>"));
    assertEquals(1.0, score("<answer>(6*4) / (1*1)</answer>"));
    assertEquals(0.1, score("<answer>(6 - 1 - 1) * 4 + 8 - 8</answer>")); // 8 is not given
    assertEquals(1.0, score("<answer>4*6*(1/1)</answer>"));
    assertEquals(1.0, score("<answer>4*6*1*1 = 24</answer>"));
  }

  @Test
  void wrongNumbersOrValueGetTheFormatScore() {
    assertEquals(0.1, score("<answer>4*6</answer>")); // numbers unused
    assertEquals(0.1, score("<answer>4*6*1*1*1</answer>")); // 1 used three times
    assertEquals(0.1, score("<answer>4+6+1+1</answer>")); // wrong value
    assertEquals(0.1, score("<answer>4*6*1/(1-1)</answer>")); // division by zero
    assertEquals(0.1, score("<answer>__import__('os')</answer>")); // not arithmetic
    assertEquals(0.1, score("<answer>4*6*1*1 = 25</answer>"));
  }

  @Test
  void onlyWhatPythonEvaluatesCounts() {
    assertEquals(1.0, score("<answer>4 \u00d7 6 \u00f7 (1 \u00d7 1)</answer>")); // × and ÷
    assertEquals(1.0, score("<answer>-(-4) * 6 * 1 * 1</answer>")); // unary minus
    assertEquals(0.1, score("<answer>4*6(1*1)</answer>")); // a product without its operator
    assertEquals(0.1, score("<answer>(4*6)1*1</answer>"));
    assertEquals(0.1, score("<answer>4 6*1*1</answer>")); // two numbers in a row
    assertEquals(0.1, score("<answer>4^1*6*1*1</answer>")); // no powers
    assertEquals(0.1, score("<answer>4.0*6*1*1</answer>")); // integer literals only
    assertEquals(0.1, score("<answer>\\frac{4}{1}*6*1</answer>")); // no LaTeX
    assertEquals(0.1, score("<answer>4*6*1*1*0000000000001</answer>")); // over 12 digits
  }

  @Test
  void noAnswerScoresZeroAndTheLastAnswerWins() {
    assertEquals(0.0, score("4*6*1*1"));
    assertEquals(1.0, score("<answer>1</answer> no wait <answer>4*6*1*1</answer>"));
  }

  @Test
  void taskFromExtraInfoAndBadGroundTruth() {
    RewardInput in =
        new RewardInput(
            "countdown",
            "",
            "<answer>2+3</answer>",
            "",
            Map.of("target", 5, "nums", List.of(3, 2)));
    assertEquals(1.0, R.score(in).score());
    assertThrows(
        IllegalArgumentException.class,
        () -> R.score(RewardInput.of("countdown", "<answer>1</answer>", "24")));
  }
}
