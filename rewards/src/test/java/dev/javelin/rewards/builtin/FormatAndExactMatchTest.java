package dev.javelin.rewards.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.javelin.rewards.RewardInput;
import org.junit.jupiter.api.Test;

class FormatAndExactMatchTest {

  private static double format(FormatReward f, String response) {
    return f.score(RewardInput.of("x", response, "")).score();
  }

  @Test
  void thinkThenAnswer() {
    FormatReward f = new FormatReward("think", "", false, false, 1.0);
    assertEquals(1.0, format(f, "  <think>step 1</think>\nThe answer is 4."));
    assertEquals(0.0, format(f, "<think>step 1</think>"));
    assertEquals(0.0, format(f, "<think> </think> 4"));
    assertEquals(0.0, format(f, "preamble <think>x</think> 4"));
    assertEquals(0.0, format(f, "<think>a</think><think>b</think> 4"));
    assertEquals(0.0, format(f, "<think>a</think> 4 </think>"));
  }

  @Test
  void answerTagsBoxAndPromptOpenedThink() {
    FormatReward tagged = new FormatReward("think", "answer", false, false, 0.5);
    assertEquals(0.5, format(tagged, "<think>x</think> <answer>4</answer>"));
    assertEquals(0.0, format(tagged, "<think>x</think> 4"));
    assertEquals(0.0, format(tagged, "<think>x</think> <answer> </answer>"));
    FormatReward boxed = new FormatReward("think", "", true, true, 1.0);
    assertEquals(1.0, format(boxed, "reasoning</think> so \\boxed{4}"));
    assertEquals(0.0, format(boxed, "reasoning</think> so 4"));
    assertEquals(0.0, format(boxed, "<think>reasoning</think> so \\boxed{4}"));
  }

  @Test
  void exactMatchFirstLineAndNumbers() {
    ExactMatchReward e = new ExactMatchReward(1.0);
    assertEquals(1.0, e.score(RewardInput.of("synthetic/arith", " 42 \nbecause", "42")).score());
    assertEquals(1.0, e.score(RewardInput.of("synthetic/arith", "0.50", "1/2")).score());
    assertEquals(1.0, e.score(RewardInput.of("synthetic/arith", "-7", "-7.0")).score());
    assertEquals(0.0, e.score(RewardInput.of("synthetic/arith", "because\n42", "42")).score());
    assertEquals(1.0, e.score(RewardInput.of("synthetic/arith", "cat", "cat")).score());
  }
}
