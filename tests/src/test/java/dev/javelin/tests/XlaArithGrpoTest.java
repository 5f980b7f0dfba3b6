package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short {@code arith-grpo} run with {@code trainer.device=xla:cpu}: the trainer actor and both
 * sampler actors (Ray local mode) open the XLA device through the PJRT plugin that the tpu-backend
 * build installs, the loop runs end to end, reward and loss metrics are finite, every rollout was
 * sampled from the trainer's current policy (the weights reached the samplers): every step's
 * rewards equal those of the same run on the {@code cpu} engine (same seeds, same policies) and the
 * policy losses agree to 1e-4.
 */
class XlaArithGrpoTest {
  private static final int STEPS = 3;
  private static final int SAMPLERS = 2;

  @Test
  void arithGrpoRunsOnXlaCpu(@TempDir Path dir) throws Exception {
    List<String> opened = new ArrayList<>();
    Logger xlaLog = Logger.getLogger("dev.javelin.backend.xla.XlaDevice");
    Handler capture =
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            String m = r.getMessage();
            if (m != null && m.startsWith("opened xla:cpu")) {
              synchronized (opened) {
                opened.add(m);
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
    Path onXla = dir.resolve("xla");
    // compiled programs persist under target/ between local runs (CI starts cold)
    String cacheBefore =
        System.setProperty(
            "javelin.xla.cache",
            Path.of(System.getProperty("javelin.root", ".."), "tests", "target", "xla-cache")
                .toString());
    try {
      run(onXla, "xla:cpu");
    } finally {
      xlaLog.removeHandler(capture);
      if (cacheBefore == null) {
        System.clearProperty("javelin.xla.cache");
      } else {
        System.setProperty("javelin.xla.cache", cacheBefore);
      }
    }
    assertTrue(
        opened.size() >= 1 + SAMPLERS,
        "trainer and " + SAMPLERS + " samplers should open xla:cpu, saw " + opened);

    Map<Integer, Double> score = TinyRuns.series(onXla, "critic/score/mean");
    assertEquals(STEPS, score.size(), "one metrics line per step");
    for (String key : List.of("critic/score/mean", "actor/pg_loss", "actor/grad_norm")) {
      TinyRuns.series(onXla, key)
          .forEach(
              (step, v) -> assertTrue(Double.isFinite(v), key + " at step " + step + ": " + v));
    }
    // present once the driver reports overlap metrics: every rollout came from the current policy
    TinyRuns.series(onXla, "rollout/staleness/max")
        .forEach((step, v) -> assertEquals(0.0, v, "step " + step + " sampled a stale policy"));

    // The same run on the cpu engine: identical seeds, so identical rewards at every step as long
    // as each step's samplers hold the trainer's new weights (a sampler left on older weights
    // scores differently) and the two devices agree to f32 rounding.
    Path onCpu = dir.resolve("cpu");
    run(onCpu, "cpu");
    assertEquals(
        TinyRuns.series(onCpu, "critic/score/mean"), score, "rewards per step, cpu vs xla");
    Map<Integer, Double> cpuLoss = TinyRuns.series(onCpu, "actor/pg_loss");
    TinyRuns.assertSeriesClose(
        cpuLoss, TinyRuns.series(onXla, "actor/pg_loss"), "pg_loss, cpu vs xla,");
  }

  private static void run(Path dir, String device) {
    TinyRuns.runTiny(
        "recipes/arith-grpo.yaml",
        dir,
        STEPS,
        "trainer.device=" + device,
        "trainer.samplers=" + SAMPLERS,
        "trainer.ray=local");
    assertTrue(Files.isDirectory(dir.resolve("global_step_" + STEPS)), "final checkpoint");
  }
}
