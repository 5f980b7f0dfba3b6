package dev.javelin.recipes.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.driver.RunSummary;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Accuracies print as percentages; other rewards' scores print as plain numbers under their name.
 */
class HeldOutTest {
  @Test
  void accuracyOnlyWhenTheRewardReportsAcc() {
    Map<String, Double> acc =
        Map.of(
            "val-core/openai/gsm8k/acc/mean@1", 0.424, "val-aux/openai/gsm8k/reward/mean@1", 0.9);
    Map<String, Double> score = Map.of("val-core/arith/reward/mean@1", -0.007);
    assertTrue(HeldOut.isAccuracy(acc));
    assertFalse(HeldOut.isAccuracy(score));
    assertEquals(-0.007, HeldOut.value(score));
    assertEquals(0.424, HeldOut.accuracy(acc));
    assertTrue(Double.isNaN(HeldOut.accuracy(score)));
    assertEquals("42.4%", HeldOut.format(HeldOut.value(acc), true));
    assertEquals("-0.007", HeldOut.format(HeldOut.value(score), false));

    String a =
        new RunSummary(1, 5, 0.424, 0.822, 5, 1, 3, false, Path.of("r"), true, null, null).render();
    assertTrue(
        a.contains("held-out greedy accuracy: 42.4% at start -> 82.2% at step 5 (+39.8 points)"),
        a);
    String s =
        new RunSummary(1, 5, -0.7, -0.5, 5, 1, 3, false, Path.of("r"), false, null, null).render();
    assertTrue(
        s.contains("held-out greedy reward: -0.700 at start -> -0.500 at step 5 (+0.200)"), s);
    assertFalse(s.contains("%"), s);

    ConsoleProgress c = new ConsoleProgress(System.out, false, 1);
    c.step(1, 2, score, -0.007);
    String line = c.line(1, 2, score, 1);
    assertTrue(line.contains("| val reward -0.007 |"), line);
  }

  @Test
  void severalSourcesWeighTheSame() {
    Map<String, Double> m =
        Map.of(
            "val-core/openai/gsm8k/acc/mean@1", 0.5,
            "val-core/HuggingFaceH4/MATH-500/acc/mean@1", 0.25,
            "val-core/openai/gsm8k/acc/mean@4", 0.9,
            "critic/score/mean", 7.0);
    assertEquals(0.375, HeldOut.value(m));
    assertTrue(HeldOut.isHeadline("val-core/HuggingFaceH4/MATH-500/acc/mean@1"));
    assertFalse(HeldOut.isHeadline("val-core/openai/gsm8k/acc/mean@4"));
    assertFalse(HeldOut.isHeadline("val-aux/openai/gsm8k/reward/mean@1"));
    assertTrue(Double.isNaN(HeldOut.value(Map.of("critic/score/mean", 1.0))));
  }
}
