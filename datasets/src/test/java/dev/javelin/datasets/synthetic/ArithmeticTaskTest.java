package dev.javelin.datasets.synthetic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.datasets.ChatMessage;
import dev.javelin.datasets.Example;
import dev.javelin.datasets.PromptTemplate;
import java.math.BigInteger;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ArithmeticTaskTest {
  private static final Pattern PLUS = Pattern.compile("\\+");
  private static final Pattern TIMES = Pattern.compile("\\*");
  private static final ArithmeticTask ADD3 =
      new ArithmeticTask(ArithmeticConfig.threeDigitAddition());

  @Test
  void threeDigitAdditionPromptsAndAnswers() {
    List<Example> examples = SyntheticDatasets.generate(ADD3, PromptTemplate.RAW, 42, 2_000);
    for (Example example : examples) {
      assertEquals("synthetic/arith", example.dataSource());
      assertEquals(1, example.prompt().size());
      String content = example.prompt().get(0).content();
      assertTrue(content.matches("\\d{1,3}\\+\\d{1,3}="), content);
      String[] operands = PLUS.split(content.substring(0, content.length() - 1), -1);
      int a = Integer.parseInt(operands[0]);
      int b = Integer.parseInt(operands[1]);
      assertTrue(a >= 0 && a <= 999 && b >= 0 && b <= 999, content);
      assertEquals(Integer.toString(a + b), example.groundTruth(), content);
      assertEquals(
          content.substring(0, content.length() - 1), example.extraInfo().get("expression"));
    }
    assertEquals(2_000, examples.stream().map(e -> e.prompt().get(0).content()).distinct().count());
  }

  @Test
  void operandsCoverTheWholeRange() {
    SplittableRandom rng = new SplittableRandom(1);
    Set<String> firstOperands = new HashSet<>();
    for (int i = 0; i < 20_000; i++) {
      firstOperands.add(PLUS.split(ADD3.draw(rng).key(), -1)[0]);
    }
    assertTrue(firstOperands.contains("0") && firstOperands.contains("999"));
    assertTrue(firstOperands.size() > 990, "got " + firstOperands.size());
  }

  @Test
  void heldOutSetIsNeverSeenInTraining() {
    SyntheticSplit split = SyntheticDatasets.split(ADD3, PromptTemplate.RAW, 7, 20_000, 500);
    assertEquals(500, split.heldOut().size());
    assertEquals(20_000, split.train().size());
    Set<List<ChatMessage>> trainPrompts = new HashSet<>();
    split.train().forEach(e -> trainPrompts.add(e.prompt()));
    split.heldOut().forEach(e -> assertTrue(!trainPrompts.contains(e.prompt()), e.uid()));
    split.heldOut().forEach(e -> assertEquals("test", e.extraInfo().get("split")));
    split.train().forEach(e -> assertEquals("train", e.extraInfo().get("split")));
    // The held-out set depends on the seed only, not on how much training data is drawn.
    SyntheticSplit smaller = SyntheticDatasets.split(ADD3, PromptTemplate.RAW, 7, 10, 500);
    assertEquals(split.heldOut(), smaller.heldOut());
  }

  @Test
  void deterministicBySeed() {
    assertEquals(
        SyntheticDatasets.split(ADD3, PromptTemplate.RAW, 3, 100, 20),
        SyntheticDatasets.split(ADD3, PromptTemplate.RAW, 3, 100, 20));
    assertNotEquals(
        SyntheticDatasets.generate(ADD3, PromptTemplate.RAW, 3, 100),
        SyntheticDatasets.generate(ADD3, PromptTemplate.RAW, 4, 100));
  }

  @Test
  void precedenceAndSigns() {
    ArithOperator plus = ArithOperator.PLUS;
    ArithOperator minus = ArithOperator.MINUS;
    ArithOperator times = ArithOperator.TIMES;
    assertEquals(BigInteger.valueOf(14), eval(new long[] {2, 3, 4}, plus, times));
    assertEquals(BigInteger.valueOf(-10), eval(new long[] {2, 3, 4}, minus, times));
    assertEquals(BigInteger.valueOf(2), eval(new long[] {2, 3, 4}, times, minus));
    assertEquals(BigInteger.valueOf(-5), eval(new long[] {2, 3, 4}, minus, minus));
    assertEquals(
        new BigInteger("999999999999999999").pow(2),
        eval(new long[] {999999999999999999L, 999999999999999999L}, times));
  }

  private static BigInteger eval(long[] operands, ArithOperator... operators) {
    return ArithmeticTask.evaluate(operands, operators);
  }

  @Test
  void mixedOperatorsMatchAnIndependentEvaluator() {
    ArithmeticTask task =
        new ArithmeticTask(new ArithmeticConfig(2, List.of(ArithOperator.values()), 4));
    SplittableRandom rng = new SplittableRandom(9);
    for (int i = 0; i < 500; i++) {
      Problem problem = task.draw(rng);
      assertEquals(Long.toString(referenceEval(problem.key())), problem.answer(), problem.key());
      assertEquals(problem.key() + "=", problem.question());
    }
  }

  /** Sum of products, split by hand on + and - (operands are non-negative, so no unary minus). */
  private static long referenceEval(String expression) {
    long total = 0;
    int sign = 1;
    int start = 0;
    for (int i = 0; i <= expression.length(); i++) {
      char c = i < expression.length() ? expression.charAt(i) : '+';
      if (c == '+' || c == '-') {
        long product = 1;
        for (String factor : TIMES.split(expression.substring(start, i), -1)) {
          product *= Long.parseLong(factor);
        }
        total += sign * product;
        sign = c == '+' ? 1 : -1;
        start = i + 1;
      }
    }
    return total;
  }

  @Test
  void tooSmallSpaceFailsWithMessage() {
    ArithmeticTask oneDigit =
        new ArithmeticTask(new ArithmeticConfig(1, List.of(ArithOperator.PLUS), 2));
    assertEquals(100, SyntheticDatasets.generate(oneDigit, PromptTemplate.RAW, 0, 100).size());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> SyntheticDatasets.split(oneDigit, PromptTemplate.RAW, 0, 90, 20));
    assertTrue(e.getMessage().contains("too small"), e.getMessage());
  }

  @Test
  void configValidation() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new ArithmeticConfig(0, List.of(ArithOperator.PLUS), 2));
    assertThrows(
        IllegalArgumentException.class,
        () -> new ArithmeticConfig(3, List.of(ArithOperator.PLUS), 1));
    assertThrows(IllegalArgumentException.class, () -> new ArithmeticConfig(3, List.of(), 2));
    assertThrows(
        IllegalArgumentException.class,
        () -> new ArithmeticConfig(3, List.of(ArithOperator.PLUS, ArithOperator.PLUS), 2));
  }
}
