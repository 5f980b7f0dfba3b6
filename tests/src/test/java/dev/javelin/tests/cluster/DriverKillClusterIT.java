package dev.javelin.tests.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./javelin run ... --ray-address} is killed with SIGKILL after a checkpoint (or its trainer
 * actor's worker is, which stops the run with a clear error); rerunning the same command resumes
 * from the last checkpoint and ends with every step once and no prompt seen twice in an epoch.
 */
class DriverKillClusterIT {
  private static final int STEPS = 8; // one epoch holds 90 / 8 = 11 batches

  @Test
  void rerunResumesFromTheLastCheckpoint(@TempDir Path dir) throws Exception {
    Path root = Path.of(System.getProperty("javelin.root"));
    List<String> command = LaunchedRun.command(root, dir, STEPS);

    Process first = LaunchedRun.start(command, root, dir.resolve("run1.log"));
    awaitCheckpoint(dir, 2, first);
    first.destroyForcibly(); // SIGKILL: no shutdown hook, no final checkpoint
    assertTrue(first.waitFor(30, TimeUnit.SECONDS));
    assertEquals(137, first.exitValue(), "killed by SIGKILL");
    int killedAt = LaunchedRun.lastCheckpoint(dir);
    assertTrue(killedAt < STEPS, "the first run finished before the kill; make steps longer");
    rerunToTheEnd(command, root, dir, killedAt);
  }

  @Test
  void aDeadTrainerStopsTheRunAndARerunResumes(@TempDir Path dir) throws Exception {
    Path root = Path.of(System.getProperty("javelin.root"));
    List<String> command = LaunchedRun.command(root, dir, STEPS);
    Process first = LaunchedRun.start(command, root, dir.resolve("run1.log"));
    awaitCheckpoint(dir, 2, first);
    long pid = LaunchedRun.alivePid("dev.javelin.trainer.TrainerActor");
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly); // SIGKILL the trainer's JVM
    assertTrue(first.waitFor(120, TimeUnit.SECONDS), "the driver hung after its trainer died");
    String log1 = Files.readString(dir.resolve("run1.log"), StandardCharsets.UTF_8);
    assertEquals(1, first.exitValue(), log1);
    assertTrue(log1.contains("trainer actor's worker process died"), log1);
    int killedAt = LaunchedRun.lastCheckpoint(dir);
    assertTrue(killedAt < STEPS, "the first run finished before the kill; make steps longer");
    rerunToTheEnd(command, root, dir, killedAt);
  }

  /**
   * Reruns the same command: it resumes after step {@code killedAt} (keeping the steps before it as
   * they were) and ends with every step once and no prompt twice in an epoch.
   */
  private static void rerunToTheEnd(List<String> command, Path root, Path dir, int killedAt)
      throws Exception {
    List<String> before = LaunchedRun.batchLines(dir, killedAt);
    Process second = LaunchedRun.start(command, root, dir.resolve("run2.log"));
    assertTrue(second.waitFor(300, TimeUnit.SECONDS), "rerun did not finish in 300 s");
    String log = Files.readString(dir.resolve("run2.log"), StandardCharsets.UTF_8);
    assertEquals(0, second.exitValue(), log);

    assertEquals(STEPS, LaunchedRun.lastCheckpoint(dir), log);
    assertFalse(log.contains("step 1/" + STEPS + " "), "the rerun started over:\n" + log);
    assertTrue(log.contains("step " + STEPS + "/" + STEPS), log);
    assertEquals(before, LaunchedRun.batchLines(dir, killedAt), "steps before the kill are kept");
    LaunchedRun.auditBatches(dir, STEPS);
  }

  private static void awaitCheckpoint(Path dir, int step, Process run) throws Exception {
    Path log = dir.resolve("run1.log");
    if (!LaunchedRun.awaitCheckpoint(dir, step, run, 180, log)) {
      fail(
          "the run exited ("
              + run.exitValue()
              + ") before checkpoint "
              + step
              + ":\n"
              + Files.readString(log));
    }
  }
}
