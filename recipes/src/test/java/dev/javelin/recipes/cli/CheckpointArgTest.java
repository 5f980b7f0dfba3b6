package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.config.ConfigException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code javelin eval <checkpoint path>} is read as a checkpoint, present or not. */
class CheckpointArgTest {
  private static ConfigException eval(String target) {
    Commands c = new Commands(new PrintStream(PrintStream.nullOutputStream()));
    return assertThrows(ConfigException.class, () -> c.evalRecipe(target, List.of()));
  }

  @Test
  void aMissingStepNamesTheKeptOnes(@TempDir Path run) throws IOException {
    Files.createDirectories(run.resolve("global_step_1400"));
    Files.createDirectories(run.resolve("global_step_1500"));
    String m = eval(run.resolve("global_step_1200").toString()).getMessage();
    assertTrue(m.startsWith("eval: no checkpoint at "), m);
    assertTrue(m.contains("global_step_1400, global_step_1500"), m);
    assertFalse(m.contains("recipe file not found"), m);
    assertEquals(1, m.lines().count());
  }

  @Test
  void aStepWithoutItsRunSaysTrainFirst(@TempDir Path tmp) {
    String m =
        eval(tmp.resolve("checkpoints/javelin/arith-grpo/global_step_1200").toString())
            .getMessage();
    assertTrue(m.contains("no checkpoint at") && m.contains("train first"), m);
  }

  @Test
  void aMissingRecipeIsStillARecipeError() {
    String m = eval("recipes/no-such-recipe.yaml").getMessage();
    assertTrue(m.contains("recipe file not found"), m);
  }

  @Test
  void anExistingCheckpointUsesItsRunsRecipe(@TempDir Path run) throws IOException {
    Path step = Files.createDirectories(run.resolve("global_step_3"));
    Files.writeString(step.resolve("config.json"), "{}");
    Files.writeString(run.resolve("recipe.yaml"), "data:\n  train_batch_size: 256\n");
    Commands c = new Commands(new PrintStream(PrintStream.nullOutputStream()));
    assertEquals(step.toString(), c.evalRecipe(step.toString(), List.of()).model().path());
  }
}
