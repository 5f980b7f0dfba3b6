package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short {@code arith-grpo} run on a four-chip {@code xla:cpu} host in Ray local mode, with the
 * trainer on chips 0-1 (FSDP 2) and two samplers on chips 2 and 3: each actor opens its own chips,
 * the run completes, and its per-step rewards and policy losses match the same run with a one-chip
 * trainer (same seeds). FSDP sums gradients in another order than one chip, so losses agree to f32
 * rounding, not bit for bit.
 */
class XlaChipsGrpoTest {
  private static final int STEPS = 3;

  @BeforeAll
  static void fourChips() {
    System.setProperty("javelin.xla.cpu.devices", "4");
    System.setProperty(
        "javelin.xla.cache",
        Path.of(System.getProperty("javelin.root", ".."), "tests", "target", "xla-cache")
            .toString());
  }

  @AfterAll
  static void restore() {
    System.clearProperty("javelin.xla.cpu.devices");
    System.clearProperty("javelin.xla.cache");
  }

  @Test
  void trainerOnTwoChipsAndSamplersOnOneEachMatchOneChip(@TempDir Path dir) throws Exception {
    Path sharded = dir.resolve("fsdp2");
    List<String> opened = opened(() -> run(sharded, "trainer.n_gpus_per_node=2"));
    assertTrue(opened.contains("xla:cpu@0-1"), "trainer on chips 0-1: " + opened);
    assertTrue(opened.contains("xla:cpu@2"), "sampler 0 on chip 2: " + opened);
    assertTrue(opened.contains("xla:cpu@3"), "sampler 1 on chip 3: " + opened);

    Path single = dir.resolve("one");
    run(single, "trainer.n_gpus_per_node=1");
    Map<Integer, Double> score = TinyRuns.series(sharded, "critic/score/mean");
    assertEquals(STEPS, score.size(), "one metrics line per step");
    assertEquals(TinyRuns.series(single, "critic/score/mean"), score, "rewards per step");
    Map<Integer, Double> oneLoss = TinyRuns.series(single, "actor/pg_loss");
    Map<Integer, Double> fsdpLoss = TinyRuns.series(sharded, "actor/pg_loss");
    double worst = 0;
    for (var e : fsdpLoss.entrySet()) {
      worst = Math.max(worst, Math.abs(e.getValue() - oneLoss.get(e.getKey())));
    }
    System.out.println("pg_loss |fsdp 2 - one chip| max over steps: " + worst);
    TinyRuns.assertSeriesClose(oneLoss, fsdpLoss, "pg_loss, fsdp 2 vs one chip,");
  }

  /**
   * Two data-parallel trainer ranks in this JVM, each on a chip of its own (the samplers on the
   * chips after theirs), end each step with the one-rank run's rewards and, to f32 summation order,
   * its policy losses.
   */
  @Test
  void twoTrainerRanksOnChipsOfTheirOwnMatchOneRank(@TempDir Path dir) throws Exception {
    Path ranks = dir.resolve("ranks");
    List<String> opened = opened(() -> run(ranks, "trainer.n_gpus_per_node=1", "trainer.nnodes=2"));
    for (String chip : List.of("xla:cpu@0", "xla:cpu@1", "xla:cpu@2", "xla:cpu@3")) {
      assertTrue(opened.contains(chip), chip + " opened: " + opened);
    }
    Path single = dir.resolve("one");
    run(single, "trainer.n_gpus_per_node=1");
    Map<Integer, Double> score = TinyRuns.series(ranks, "critic/score/mean");
    assertEquals(STEPS, score.size(), "one metrics line per step");
    assertEquals(TinyRuns.series(single, "critic/score/mean"), score, "rewards per step");
    TinyRuns.assertSeriesClose(
        TinyRuns.series(single, "actor/pg_loss"),
        TinyRuns.series(ranks, "actor/pg_loss"),
        "pg_loss, 2 ranks vs one,");
  }

  /** The chip specs the XLA devices opened while {@code body} ran. */
  private static List<String> opened(Runnable body) {
    List<String> opened = new ArrayList<>();
    Logger xlaLog = Logger.getLogger("dev.javelin.backend.xla.XlaDevice");
    Handler capture =
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            String m = r.getMessage();
            if (m != null && m.startsWith("opened xla:cpu@")) {
              synchronized (opened) {
                opened.add(m.substring("opened ".length(), m.indexOf(' ', "opened ".length())));
              }
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    xlaLog.addHandler(capture);
    xlaLog.setLevel(Level.INFO);
    try {
      body.run();
    } finally {
      xlaLog.removeHandler(capture);
    }
    synchronized (opened) {
      return new ArrayList<>(opened);
    }
  }

  private static void run(Path dir, String... chips) {
    List<String> o =
        new ArrayList<>(
            List.of("trainer.device=xla:cpu", "trainer.samplers=2", "trainer.ray=local"));
    o.addAll(List.of(chips));
    TinyRuns.runTiny("recipes/arith-grpo.yaml", dir, STEPS, o.toArray(String[]::new));
  }
}
