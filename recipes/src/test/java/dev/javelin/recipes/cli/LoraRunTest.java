package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.checkpoint.PeftAdapter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A LoRA run through the CLI: checkpoints carry the PEFT adapter next to the merged model, resume
 * with the same keys, and a run with other LoRA keys is refused in one line naming lora_rank.
 */
class LoraRunTest {
  private static final String RANK = "actor_rollout_ref.model.lora_rank=4";
  @TempDir Path tmp;

  @Test
  void aLoraRunCheckpointsItsAdapterAndResumesOnlyWithTheSameKeys() throws Exception {
    Path dir = tmp.resolve("run");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream o = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    String[] first = TinyRecipe.runArgs(dir, 1, RANK, "trainer.save_freq=1");
    assertEquals(0, Main.run(first, o, e), err.toString(StandardCharsets.UTF_8));
    Path step = dir.resolve("global_step_1");
    ModelCheckpoint merged = ModelCheckpoint.load(step);
    assertEquals(
        4,
        PeftAdapter.load(step.resolve(PeftAdapter.CHECKPOINT_DIR), merged.config()).lora().rank());

    err.reset();
    int code = Main.run(TinyRecipe.runArgs(dir, 2), o, e);
    String msg = err.toString(StandardCharsets.UTF_8);
    assertEquals(2, code, msg);
    assertEquals(1, msg.strip().lines().count(), msg);
    assertTrue(msg.contains("actor_rollout_ref.model.lora_rank") && msg.contains("rank 4"), msg);
    assertFalse(msg.lines().anyMatch(l -> l.matches("^\\s+at [a-z].*")), msg);

    err.reset();
    String drop = "actor_rollout_ref.model.lora_dropout=0.1";
    assertEquals(2, Main.run(TinyRecipe.runArgs(dir, 2, RANK, drop), o, e));
    String dropMsg = err.toString(StandardCharsets.UTF_8);
    assertTrue(
        dropMsg.contains("actor_rollout_ref.model.lora_dropout") && dropMsg.contains("dropout 0.1"),
        dropMsg);

    err.reset();
    assertEquals(
        0, Main.run(TinyRecipe.runArgs(dir, 2, RANK), o, e), err.toString(StandardCharsets.UTF_8));
    assertTrue(PeftAdapter.isIn(dir.resolve("global_step_2").resolve(PeftAdapter.CHECKPOINT_DIR)));
  }
}
