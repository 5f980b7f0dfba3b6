package dev.javelin.datasets.synthetic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.datasets.Example;
import dev.javelin.datasets.PromptTemplate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CountdownTaskTest {

  @Test
  void solverFindsKnownSolutionsAndRejectsImpossibleOnes() {
    Optional<String> solution = CountdownSolver.solve(List.of(3L, 5L, 2L), 16);
    assertTrue(solution.isPresent());
    assertEquals(new Fraction(16, 1), ExpressionCheck.evaluate(solution.get()));
    assertEquals(List.of(2L, 3L, 5L), ExpressionCheck.numbersIn(solution.get()));
    // Needs a fractional intermediate: 8 / (3 - 8/3) = 24.
    Optional<String> fractional = CountdownSolver.solve(List.of(8L, 3L, 8L, 3L), 24);
    assertTrue(fractional.isPresent());
    assertEquals(new Fraction(24, 1), ExpressionCheck.evaluate(fractional.get()));
    assertTrue(CountdownSolver.solve(List.of(1L, 1L), 5).isEmpty());
    assertTrue(CountdownSolver.solve(List.of(2L, 2L, 2L), 1000).isEmpty());
  }

  @Test
  void generatesOnlySolvableInstancesWithRewardFields() {
    CountdownTask task = new CountdownTask(CountdownConfig.standard());
    List<Example> examples = SyntheticDatasets.generate(task, PromptTemplate.COUNTDOWN, 5, 200);
    assertEquals(200, examples.size());
    for (Example example : examples) {
      assertEquals("synthetic/countdown", example.dataSource());
      long target = (Long) example.extraInfo().get("target");
      @SuppressWarnings("unchecked") // extraInfo values are documented JSON-like types
      List<Long> numbers = (List<Long>) example.extraInfo().get("numbers");
      assertEquals(Long.toString(target), example.groundTruth());
      assertEquals(4, numbers.size());
      numbers.forEach(n -> assertTrue(n >= 1 && n <= 99, example.uid()));
      assertTrue(target >= 1 && target <= 100);
      String solution = (String) example.extraInfo().get("solution");
      assertEquals(new Fraction(target, 1), ExpressionCheck.evaluate(solution), solution);
      List<Long> sorted = new ArrayList<>(numbers);
      sorted.sort(null);
      assertEquals(sorted, ExpressionCheck.numbersIn(solution), solution);
      String content = example.prompt().get(0).content();
      String listed = numbers.toString().replace("[", "").replace("]", "");
      assertTrue(
          content.contains("numbers " + listed + ", create")
              && content.contains("equals " + target),
          content);
      // No list brackets: the character tokenizer of the shipped countdown recipe encodes it.
      dev.javelin.datasets.tokenizer.Tokenizers.character().encode(content);
      assertTrue(content.contains("<answer>"), content);
    }
  }

  @Test
  void deterministicBySeedWithDisjointHeldOut() {
    CountdownTask task = new CountdownTask(CountdownConfig.standard());
    SyntheticSplit a = SyntheticDatasets.split(task, PromptTemplate.COUNTDOWN, 11, 50, 20);
    SyntheticSplit b = SyntheticDatasets.split(task, PromptTemplate.COUNTDOWN, 11, 50, 20);
    assertEquals(a, b);
    List<Object> heldOutKeys = new ArrayList<>();
    a.heldOut().forEach(e -> heldOutKeys.add(List.of(e.extraInfo().get("target"), sorted(e))));
    a.train()
        .forEach(
            e ->
                assertTrue(!heldOutKeys.contains(List.of(e.extraInfo().get("target"), sorted(e)))));
  }

  private static List<Long> sorted(Example example) {
    @SuppressWarnings("unchecked") // extraInfo values are documented JSON-like types
    List<Long> numbers = new ArrayList<>((List<Long>) example.extraInfo().get("numbers"));
    numbers.sort(null);
    return numbers;
  }

  @Test
  void unreachableConfigFailsWithMessage() {
    CountdownTask impossible = new CountdownTask(new CountdownConfig(2, 1, 1, 500, 600, 50));
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class, () -> impossible.draw(new java.util.SplittableRandom(0)));
    assertTrue(e.getMessage().contains("no solvable instance"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new CountdownConfig(6, 1, 9, 1, 9, 10));
    assertThrows(IllegalArgumentException.class, () -> new CountdownConfig(3, 0, 9, 1, 9, 10));
  }
}
