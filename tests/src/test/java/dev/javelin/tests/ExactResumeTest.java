package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.javelin.recipes.cli.Commands;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run stopped after step 2 and resumed to step 4 reaches exactly the weights (and sees exactly
 * the rewards) of an uninterrupted 4-step run with the same seed.
 */
class ExactResumeTest {
  private static final Commands QUIET =
      new Commands(new PrintStream(OutputStream.nullOutputStream()));

  @Test
  void resumedRunMatchesUninterruptedRun(@TempDir Path tmp) throws Exception {
    Path straight = tmp.resolve("straight");
    Path resumed = tmp.resolve("resumed");
    QUIET.run(
        "recipes/arith-grpo.yaml",
        TinyRuns.tiny(straight, 4, "trainer.ray=off", "trainer.save_freq=2"));
    QUIET.run("recipes/arith-grpo.yaml", TinyRuns.tiny(resumed, 2, "trainer.ray=off"));
    QUIET.run(
        "recipes/arith-grpo.yaml",
        TinyRuns.tiny(resumed, 4, "trainer.ray=off", "trainer.resume_mode=auto"));

    assertArrayEquals(
        Files.readAllBytes(straight.resolve("global_step_4/model.safetensors")),
        Files.readAllBytes(resumed.resolve("global_step_4/model.safetensors")),
        "weights after step 4");
    Map<Integer, Double> a = TinyRuns.series(straight, "critic/score/mean");
    Map<Integer, Double> b = TinyRuns.series(resumed, "critic/score/mean");
    assertEquals(a, b, "per-step rewards");
    assertEquals(
        "4", Files.readString(resumed.resolve("latest_checkpointed_iteration.txt")).strip());
  }
}
