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

/** Storage faults seen from the command line: damaged checkpoints and unwritable directories. */
class CheckpointFaultRunTest {
  @TempDir Path tmp;
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    err.reset();
    return Main.run(
        args,
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aRunResumesPastAFlippedByteFromThePreviousCheckpoint() throws Exception {
    Path dir = tmp.resolve("run");
    assertEquals(0, run(TinyRecipe.runArgs(dir, 2, "trainer.save_freq=1")), this::err);
    Path model = dir.resolve("global_step_2/model.safetensors");
    byte[] b = Files.readAllBytes(model);
    b[b.length - 3] ^= 1;
    Files.write(model, b);
    // Resumes from global_step_1 (global_step_2 fails its checksum), trains steps 2 and 3 again.
    assertEquals(0, run(TinyRecipe.runArgs(dir, 3, "trainer.save_freq=1")), this::err);
    assertEquals("3", Files.readString(dir.resolve("latest_checkpointed_iteration.txt")));
    byte[] again = Files.readAllBytes(model);
    assertFalse(java.util.Arrays.equals(b, again), "step 2 was trained and saved again");
  }

  @Test
  void everyCheckpointDamagedStopsWithOneLineNamingTheDirectory() throws Exception {
    Path dir = tmp.resolve("run");
    assertEquals(0, run(TinyRecipe.runArgs(dir, 1)), this::err);
    Files.write(dir.resolve("global_step_1/optimizer.safetensors"), new byte[] {1, 2, 3});
    assertEquals(2, run(TinyRecipe.runArgs(dir, 2)));
    String m = err().strip();
    assertTrue(m.startsWith("javelin: no complete checkpoint left in " + dir), m);
    assertTrue(m.contains("optimizer.safetensors has 3 bytes"), m);
    assertEquals(1, m.lines().count(), m);
  }

  @Test
  void anUnwritableCheckpointDirectoryStopsBeforeTraining() throws Exception {
    Path file = Files.writeString(tmp.resolve("a-file"), "mine");
    Path ckpt = file.resolve("checkpoints");
    int code = run(TinyRecipe.runArgs(tmp.resolve("run"), 1, "trainer.default_local_dir=" + ckpt));
    String m = err().strip();
    assertEquals(2, code, m);
    assertTrue(m.startsWith("javelin: cannot write checkpoints to " + ckpt), m);
    assertTrue(m.contains("set trainer.default_local_dir to another directory"), m);
    assertEquals(1, m.lines().count(), m);
    assertEquals("mine", Files.readString(file));
  }
}
