package dev.javelin.recipes.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.config.Recipes;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The warm-up says up front that a long flat start is normal, and when it will stop. */
class SftExpectationTest {
  @Test
  void saysWhatToExpectAndWhenItStops() {
    String line = SftRunner.whatToExpect(Recipes.load("recipes/arith-sft.yaml", List.of()), 3000);
    assertEquals(1, line.lines().count());
    assertTrue(line.contains("near 0% for many steps"), line);
    assertTrue(
        line.contains("at 40% held-out accuracy (sft.stop_at_accuracy) or after 3000"), line);
    String noStop =
        SftRunner.whatToExpect(
            Recipes.load("recipes/arith-sft.yaml", List.of("~sft.stop_at_accuracy")), 50);
    assertTrue(noStop.endsWith("stops after 50 steps"), noStop);
  }
}
