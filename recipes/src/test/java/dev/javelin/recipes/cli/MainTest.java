package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.model.CausalAttention;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
  void badProgramPropertyExitsWithTwoBeforeAnyWork() {
    String before = System.getProperty(CausalAttention.PROPERTY);
    System.setProperty(CausalAttention.PROPERTY, "abc");
    try {
      assertEquals(2, run("run", "recipes/arith-grpo.yaml"));
      assertTrue(err().contains("-D" + CausalAttention.PROPERTY + "=abc"), err());
      assertEquals(1, err().lines().count(), err());
    } finally {
      if (before == null) {
        System.clearProperty(CausalAttention.PROPERTY);
      } else {
        System.setProperty(CausalAttention.PROPERTY, before);
      }
    }
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

  @Test
  void helpInEveryPlace() {
    for (String[] args :
        new String[][] {
          {"help"}, {"--help"}, {"run", "--help"}, {"eval", "-h"}, {"sft", "--help"}
        }) {
      out.reset();
      assertEquals(0, run(args), String.join(" ", args) + ": " + err());
      assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("usage: javelin"));
    }
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("1 run or job failed or stopped"));
  }

  @Test
  void unknownOptionListsTheOptions() {
    assertEquals(2, run("run", "recipes/arith-grpo.yaml", "--devcie", "cpu"));
    assertTrue(err().contains("--device SPEC"), err());
  }

  @Test
  void emptyAndBinaryRecipesSaySo(@TempDir Path dir) throws Exception {
    Path empty = Files.writeString(dir.resolve("empty.yaml"), "\n# nothing\n");
    assertEquals(2, run("run", empty.toString()));
    assertTrue(err().contains("is empty: start from a bundled recipe"), err());
    assertFalse(err().contains("max_positions"), err());
    Path bin = Files.write(dir.resolve("model.bin"), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});
    err.reset();
    assertEquals(2, run("run", bin.toString()));
    assertTrue(err().contains("is not a UTF-8 text file"), err());
    assertFalse(err().contains("Input length"), err());
  }

  @Test
  void devicesThisHostCannotOpenAreOneLine(@TempDir Path dir) {
    assertEquals(2, run("run", "recipes/arith-grpo.yaml", "--device", "gpu"));
    assertTrue(err().contains("'trainer.device'") && err().contains("a GPU is xla:gpu"), err());
    err.reset();
    assertEquals(2, run(TinyRecipe.runArgs(dir.resolve("r"), 1, "trainer.device=xla:gpu")));
    String msg = err();
    assertTrue(msg.startsWith("javelin: recipe key 'trainer.device': "), msg);
    assertEquals(1, msg.strip().lines().count(), msg);
  }

  @Test
  void promptsTheTokenizerCannotEncodeNameTheCharacter(@TempDir Path dir) throws IOException {
    // The character tokenizer has no brackets: every prompt here is skipped, and the error says
    // which character stopped it and what to do.
    Path rows =
        Files.writeString(
            dir.resolve("lists.jsonl"),
            "{\"question\": \"sum of [2, 3]\", \"answer\": \"#### 5\"}\n".repeat(8));
    assertEquals(
        2,
        run(
            TinyRecipe.runArgs(
                dir.resolve("run"),
                1,
                "data.synthetic.task=none",
                "data.train_files=[" + rows + "]",
                "data.val_files=[" + rows + "]",
                "data.file_format=gsm8k",
                "data.prompt_template=raw",
                "data.max_prompt_length=24",
                "actor_rollout_ref.model.init.max_positions=32")));
    String msg = err();
    assertTrue(msg.contains("'actor_rollout_ref.model.tokenizer_path'"), msg);
    assertTrue(msg.contains("U+005B '['"), msg);
    assertTrue(msg.contains("use a tokenizer that covers these characters"), msg);
    assertEquals(1, msg.strip().lines().count(), msg);
  }
}
