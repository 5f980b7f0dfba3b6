package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.cli.Commands;
import dev.javelin.recipes.driver.RunSummary;
import dev.javelin.trainer.FaultPoint;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run of two trainer ranks ({@code trainer.nnodes=2}) whose rank 1 fails at step 7 restarts the
 * gang from the step-6 checkpoint, says so in one line, and ends with the weights, losses and
 * rewards of the same run uninterrupted, bit for bit (a restart is a resume, which is exact).
 */
class TrainerGangRestartTest {
  private static final int STEPS = 10;

  @Test
  void aRankThatFailsOnceRestartsTheGangFromTheLastCheckpoint(@TempDir Path tmp) throws Exception {
    Path straight = tmp.resolve("straight");
    Path restarted = tmp.resolve("restarted");
    new Commands(new PrintStream(OutputStream.nullOutputStream()))
        .run("recipes/arith-grpo.yaml", overrides(straight, "off"));

    restartedOnce(restarted, "off");

    TinyRuns.assertSameWeightFiles(
        straight.resolve("global_step_10"),
        restarted.resolve("global_step_10"),
        "weights and moments after step 10");
    for (String key : new String[] {"actor/pg_loss", "actor/grad_norm", "critic/score/mean"}) {
      Map<Integer, Double> a = TinyRuns.series(straight, key);
      assertEquals(STEPS, a.size(), key + " once per step");
      assertEquals(a, TinyRuns.series(restarted, key), key);
    }
  }

  @Test
  void inRayLocalModeTheTrainerActorRestartsItsGang(@TempDir Path tmp) {
    restartedOnce(tmp.resolve("local"), "local");
  }

  @Test
  void aFailureBeforeAnyCheckpointRestartsFromTheStart(@TempDir Path tmp) throws Exception {
    Path straight = tmp.resolve("straight");
    Path restarted = tmp.resolve("restarted");
    List<String> four = overrides(straight, "off");
    four.set(
        four.indexOf("trainer.total_training_steps=" + STEPS), "trainer.total_training_steps=4");
    new Commands(new PrintStream(OutputStream.nullOutputStream()))
        .run("recipes/arith-grpo.yaml", four);
    List<String> failing = new ArrayList<>(four);
    failing.set(
        failing.indexOf("trainer.default_local_dir=" + straight),
        "trainer.default_local_dir=" + restarted);
    String printed = runFailing("gang-rank:1@2:fail", failing);
    assertTrue(
        printed.contains(
            "restarting the trainer gang from the point this run started from (restart 1 of"),
        printed);
    TinyRuns.assertSameWeightFiles(
        straight.resolve("global_step_4"),
        restarted.resolve("global_step_4"),
        "weights and moments after step 4");
  }

  @Test
  void pastMaxRestartsTheRankFailureStopsTheRun(@TempDir Path tmp) {
    List<String> o = overrides(tmp.resolve("run"), "off");
    o.add("trainer.max_restarts=0");
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    FaultPoint.resetCounts();
    System.setProperty(FaultPoint.PROPERTY, "gang-rank:0@2:fail");
    RuntimeException e;
    try {
      e =
          assertThrows(
              RuntimeException.class,
              () ->
                  new Commands(new PrintStream(console, true, StandardCharsets.UTF_8))
                      .run("recipes/arith-grpo.yaml", o));
    } finally {
      System.clearProperty(FaultPoint.PROPERTY);
    }
    String printed = console.toString(StandardCharsets.UTF_8);
    assertTrue(e.getMessage().startsWith("trainer rank 0 failed: "), e.getMessage());
    assertTrue(
        printed.contains(
            "trainer rank 0 failed at step 2: dev.javelin.trainer.FaultPoint$InjectedFault"),
        printed);
    assertTrue(printed.contains("; not restarted (trainer.max_restarts=0, 0 used)"), printed);
  }

  /** Runs {@code overrides} with {@code fault} set; asserts it completed; returns its console. */
  private static String runFailing(String fault, List<String> overrides) {
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    RunSummary summary;
    FaultPoint.resetCounts();
    System.setProperty(FaultPoint.PROPERTY, fault);
    try {
      summary =
          new Commands(new PrintStream(console, true, StandardCharsets.UTF_8))
              .run("recipes/arith-grpo.yaml", overrides);
    } finally {
      System.clearProperty(FaultPoint.PROPERTY);
    }
    String printed = console.toString(StandardCharsets.UTF_8);
    assertFalse(summary.stopped(), printed);
    assertEquals(1, printed.lines().filter(l -> l.startsWith("trainer rank ")).count(), printed);
    return printed;
  }

  /** Runs with rank 1 failing at step 7; asserts the run ended and the one line it printed. */
  private static void restartedOnce(Path restarted, String ray) {
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    RunSummary summary;
    FaultPoint.resetCounts(); // each run counts rank 1's updates from its first
    System.setProperty(FaultPoint.PROPERTY, "gang-rank:1@7:fail");
    try {
      summary =
          new Commands(new PrintStream(console, true, StandardCharsets.UTF_8))
              .run("recipes/arith-grpo.yaml", overrides(restarted, ray));
    } finally {
      System.clearProperty(FaultPoint.PROPERTY);
    }
    String printed = console.toString(StandardCharsets.UTF_8);
    assertEquals(STEPS, summary.lastStep(), printed);
    assertFalse(summary.stopped(), printed);
    List<String> said = printed.lines().filter(l -> l.startsWith("trainer rank ")).toList();
    assertEquals(1, said.size(), printed);
    String line = said.get(0);
    assertTrue(line.startsWith("trainer rank 1 failed at step 7: "), line);
    assertTrue(line.contains("injected fault at gang-rank:1@7"), line);
    assertTrue(
        line.contains("restarting the trainer gang from " + restarted.resolve("global_step_6")),
        line);
    assertTrue(line.endsWith("(restart 1 of trainer.max_restarts=3)"), line);
  }

  private static List<String> overrides(Path dir, String ray) {
    return new ArrayList<>(
        TinyRuns.tiny(
            dir,
            STEPS,
            "trainer.ray=" + ray,
            "trainer.nnodes=2",
            "trainer.save_freq=3",
            "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=16"));
  }
}
