package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class MainTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Main.run(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void badOverrideExitsWithTwoAndNamesTheKey() {
    assertEquals(2, run("run", "recipes/arith-grpo.yaml", "data.train_bach_size=8"));
    assertTrue(err().contains("did you mean 'data.train_batch_size'"), err());
  }

  @Test
  void samplersFlagBecomesAKey() {
    assertEquals(
        List.of("a=1", "trainer.samplers=4", "trainer.samplers=3"),
        Main.overrides(new String[] {"run", "r", "a=1", "--samplers", "4", "--samplers=3"}));
  }

  @Test
  void unknownCommandAndNoArgs() {
    assertEquals(2, run("train", "recipes/arith-grpo.yaml"));
    assertTrue(err().contains("unknown command 'train'"), err());
    assertEquals(2, run());
  }

  @Test
  void reportOfADirectoryWithoutMetricsNamesIt() {
    assertEquals(2, run("report", "no/such/run"));
    assertTrue(err().contains("no/such/run has no metrics.jsonl"), err());
    assertEquals(2, run("report"));
  }

  @Test
  void listsBundledRecipes() {
    assertEquals(0, run("recipes"));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("recipes/arith-grpo.yaml"));
  }
}
