package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Signals to a launched {@code javelin run}: SIGTERM stops it with a checkpoint even when it was
 * started with SIGINT ignored (as a script's background job is), and Ctrl-C during start-up exits
 * at once without claiming a checkpoint.
 */
class SignalLaunchTest {
  @TempDir Path tmp;

  private Process launch(String[] args, boolean ignoreInt, Path log) throws Exception {
    return LaunchedMain.start(List.of(), args, ignoreInt, log, null);
  }

  private static void await(Process p, Path log, BooleanSupplier done) throws Exception {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (!done.getAsBoolean()) {
      assertTrue(p.isAlive() && System.nanoTime() < until, Files.readString(log));
      Thread.sleep(20);
    }
  }

  private static void signal(Process p, String sig) throws Exception {
    assertEquals(
        0, new ProcessBuilder("kill", "-" + sig, Long.toString(p.pid())).start().waitFor());
  }

  private static long lines(Path file) {
    try {
      return Files.exists(file) ? Files.readAllLines(file).size() : 0;
    } catch (java.io.IOException e) {
      return 0;
    }
  }

  private static boolean hasCheckpoint(Path dir) throws Exception {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.anyMatch(p -> p.getFileName().toString().startsWith("global_step_"));
    }
  }

  @Test
  void sigtermStopsWithACheckpointWhenSigintIsIgnored() throws Exception {
    Path dir = tmp.resolve("bg");
    Path log = tmp.resolve("bg.log");
    Process p = launch(TinyRecipe.runArgs(dir, 100_000), true, log);
    try {
      await(p, log, () -> lines(dir.resolve("metrics.jsonl")) >= 3);
      signal(p, "INT"); // ignored, as for a background job
      Thread.sleep(500);
      assertTrue(p.isAlive(), Files.readString(log));
      signal(p, "TERM");
      assertTrue(p.waitFor(60, TimeUnit.SECONDS), "SIGTERM did not stop the run");
      String printed = Files.readString(log, StandardCharsets.UTF_8);
      assertEquals(1, p.exitValue(), printed);
      assertTrue(printed.contains("finishing the step and saving a checkpoint"), printed);
      assertTrue(hasCheckpoint(dir), printed);
    } finally {
      p.destroyForcibly();
    }
  }

  @Test
  void ctrlCDuringStartUpExitsAtOnceAndSaysNothingWasSaved() throws Exception {
    Path dir = tmp.resolve("startup");
    Path log = tmp.resolve("startup.log");
    // A reward that hangs keeps the validation of step 0, still start-up, busy for seconds.
    Path src = Files.writeString(tmp.resolve("Sleeper.java"), HangingRewardStopTest.SLEEPER);
    Process p =
        launch(
            TinyRecipe.runArgs(
                dir,
                100_000,
                "custom_reward_function.path=" + src,
                "custom_reward_function.name=com.example.Sleeper",
                "reward.timeout_s=10"),
            false,
            log);
    try {
      await(p, log, () -> readQuietly(log).contains("javelin run "));
      Thread.sleep(1500);
      signal(p, "INT");
      assertTrue(p.waitFor(30, TimeUnit.SECONDS), "Ctrl-C during start-up did not stop the run");
      String printed = Files.readString(log, StandardCharsets.UTF_8);
      assertEquals(130, p.exitValue(), printed);
      assertTrue(printed.contains("interrupted during start-up"), printed);
      assertFalse(printed.contains("saving a checkpoint"), printed);
      assertFalse(hasCheckpoint(dir), printed);
    } finally {
      p.destroyForcibly();
    }
  }

  private static String readQuietly(Path f) {
    try {
      return Files.readString(f, StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      return "";
    }
  }
}
