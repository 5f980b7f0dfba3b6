package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Resuming a run directory that holds another model's checkpoint says so and how to go on. */
class ResumeForeignModelTest {
  @TempDir Path tmp;

  @Test
  void anotherModelsCheckpointIsRefusedWithTheWaysOut() throws Exception {
    Path dir = tmp.resolve("run");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    assertEquals(
        0,
        Main.run(TinyRecipe.runArgs(dir, 1, "trainer.save_freq=1"), o, e),
        err.toString(StandardCharsets.UTF_8));
    String metrics = Files.readString(dir.resolve("metrics.jsonl"));

    err.reset();
    int code = Main.run(TinyRecipe.runArgs(dir, 2, "actor_rollout_ref.model.init.hidden=24"), o, e);
    String msg = err.toString(StandardCharsets.UTF_8);
    assertEquals(2, code, msg);
    assertEquals(1, msg.strip().lines().count(), msg);
    assertTrue(msg.contains(dir + " holds a checkpoint of another model"), msg);
    assertTrue(msg.contains("hidden 16") && msg.contains("hidden 24"), msg);
    assertTrue(msg.contains("another trainer.default_local_dir"), msg);
    assertTrue(msg.contains("trainer.resume_mode=disable"), msg);
    assertFalse(msg.lines().anyMatch(l -> l.matches("^\\s+at [a-z].*")), msg);
    assertEquals(
        metrics, Files.readString(dir.resolve("metrics.jsonl")), "the run dir was changed");
  }
}
