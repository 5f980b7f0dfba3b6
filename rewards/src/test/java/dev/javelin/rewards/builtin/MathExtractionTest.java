package dev.javelin.rewards.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.rewards.RewardConfigException;
import dev.javelin.rewards.RewardFunction;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardRegistry;
import dev.javelin.rewards.RewardSpec;
import dev.javelin.rewards.math.AnswerExtractor;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The {@code math_verify} extraction mode: answers beyond the last box, each case with a near miss
 * that must still score 0, and the default ({@code verl}) mode unchanged.
 */
class MathExtractionTest {

  private static final MathReward LENIENT =
      new MathReward(1.0, 0.0, AnswerExtractor.Mode.MATH_VERIFY);
  private static final MathReward VERL = new MathReward(1.0, 0.0);

  private static double lenient(String response, String gt) {
    return LENIENT.score(RewardInput.of("math", response, gt)).score();
  }

  private static double verl(String response, String gt) {
    return VERL.score(RewardInput.of("math", response, gt)).score();
  }

  @Test
  void answerStatedInTheText() {
    assertEquals(1.0, lenient("Adding the parts, the answer is 7.", "7"));
    assertEquals(0.0, lenient("Adding the parts, the answer is 7.5", "7"));
    assertEquals(1.0, lenient("So the final answer is $\\frac{3}{4}$.", "0.75"));
    assertEquals(1.0, lenient("Final Answer: 12", "12"));
    assertEquals(0.0, lenient("Final Answer: 13", "12"));
    assertEquals(0.0, verl("Adding the parts, the answer is 7.", "7"));
  }

  @Test
  void lastMathOnTheFinalLine() {
    assertEquals(1.0, lenient("We compute the area.\nSo the area is $16\\pi$.", "16\\pi"));
    assertEquals(0.0, lenient("We compute the area.\nSo the area is $16\\pi$.", "8\\pi"));
    assertEquals(1.0, lenient("Solving, we get\n$$x = 3$$", "3"));
    assertEquals(1.0, lenient("Solving, we get\n$$\nx = 3\n$$\n", "3"));
    assertEquals(1.0, lenient("Solving, we get \\[ y = -2 \\]", "-2"));
    // math that is not on the final line is not an answer
    assertEquals(0.0, lenient("We get $x = 3$.\nThat settles the question.", "3"));
    assertEquals(0.0, verl("So the area is $16\\pi$.", "16\\pi"));
  }

  @Test
  void candidatesInTheDocumentedOrder() {
    // a box beats "answer is"; "answer is" beats the final line's math
    assertEquals(0.0, lenient("The answer is 5. On reflection, \\boxed{6}", "5"));
    assertEquals(1.0, lenient("The answer is 5. On reflection, \\boxed{6}", "6"));
    assertEquals(1.0, lenient("The answer is 4.\nCheck: $2 \\cdot 2 = 4$ and $3$", "4"));
    assertEquals(0.0, lenient("The answer is 3.\n$4$", "4"));
  }

  @Test
  void severalBoxesJoinedWhenTheGroundTruthIsAList() {
    assertEquals(1.0, lenient("So $x = \\boxed{-1}$ and $x = \\boxed{-9}$.", "-1,-9"));
    assertEquals(1.0, lenient("roots \\boxed{-9} and \\boxed{-1}", "-1, -9"));
    assertEquals(0.0, lenient("only \\boxed{-1}", "-1,-9"));
    assertEquals(0.0, lenient("\\boxed{-1}\n\nLater, unrelated: \\boxed{-9}", "-1,-9"));
    assertEquals(0.0, lenient("\\boxed{-1} and \\boxed{-8}", "-1,-9"));
    assertEquals(0.0, verl("So $x = \\boxed{-1}$ and $x = \\boxed{-9}$.", "-1,-9"));
  }

  @Test
  void piecewiseAnswerMustMatchInFull() {
    String piecewise =
        "\\boxed{\\frac{n}{2} \\text{ if } n \\equiv 0 \\bmod 4; \\frac{n}{2}+1 \\text{ if } n"
            + " \\equiv 2 \\bmod 4}";
    assertEquals(0.0, verl(piecewise, "\\frac{n}{2}"));
    assertEquals(0.0, lenient(piecewise, "\\frac{n}{2}"));
  }

  @Test
  void chosenByKwargAndByTheRecipeSection() {
    RewardRegistry registry = RewardRegistry.load();
    RewardFunction byKwarg = registry.create("math", Map.of("extraction", "math_verify"));
    assertEquals(1.0, byKwarg.score(RewardInput.of("math", "The answer is 7.", "7")).score());
    assertEquals(
        0.0,
        registry
            .create("math", Map.of())
            .score(RewardInput.of("math", "The answer is 7.", "7"))
            .score());
    // custom_reward_function.reward_kwargs.math.extraction in a recipe, through the dispatcher
    RewardFunction dispatcher =
        registry.resolve(
            RewardSpec.fromRecipe(
                Map.of("reward_kwargs", Map.of("math", Map.of("extraction", "math_verify")))));
    assertEquals(1.0, dispatcher.score(RewardInput.of("math500", "The answer is 7.", "7")).score());
    RewardConfigException bad =
        assertThrows(
            RewardConfigException.class,
            () -> registry.create("math", Map.of("extraction", "loose")));
    assertTrue(bad.getMessage().contains("extraction"), bad.getMessage());
  }
}
