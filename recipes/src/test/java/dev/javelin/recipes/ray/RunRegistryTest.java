package dev.javelin.recipes.ray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The registry and its reports without Ray: the actor is a plain object. */
class RunRegistryTest {
  @Test
  void keepsTheNewestReportPerRunAndForgetsTheOldestRuns() {
    RunRegistry r = new RunRegistry();
    assertTrue(r.report("a", "{\"v\":1}"));
    assertTrue(r.report("b", "{\"v\":2}"));
    assertTrue(r.report("a", "{\"v\":3}"));
    assertEquals(List.of("{\"v\":2}", "{\"v\":3}"), RunRegistry.lines(r.reports()));
    for (int i = 0; i < RunRegistry.MAX_RUNS + 5; i++) {
      r.report("run" + i, "{}");
    }
    assertEquals(RunRegistry.MAX_RUNS, RunRegistry.lines(r.reports()).size());
  }

  @Test
  void rejectsBadReports() {
    RunRegistry r = new RunRegistry();
    assertFalse(r.report("a b", "{}"));
    assertFalse(r.report(null, "{}"));
    assertFalse(r.report("a", "x".repeat(RunRegistry.MAX_REPORT_CHARS + 1)));
    assertFalse(r.report("a", "{}\n{}"));
    assertTrue(RunRegistry.lines(r.reports()).isEmpty());
  }

  @Test
  void progressRoundTripsThroughJsonWithNaNAsNull() {
    RunRegistryProgress p =
        new RunRegistryProgress(
            "exp@h:1-x",
            "exp",
            "raysubmit_1",
            "running",
            3,
            10,
            0.5,
            Double.NaN,
            1234.5,
            2.0,
            14.0,
            99L);
    String json = p.toJson();
    assertTrue(json.contains("\"accuracy\":null"), json);
    assertEquals(p, RunRegistryProgress.fromJson(json));
    assertThrows(IllegalArgumentException.class, () -> RunRegistryProgress.fromJson("{\"x\":1}"));
    assertThrows(
        IllegalArgumentException.class, () -> RunRegistryProgress.fromJson("[[[[[[1]]]]]]"));
  }

  @Test
  void reporterSendsStepRewardAccuracyThroughputAndEta() {
    List<String> sent = new ArrayList<>();
    AtomicLong now = new AtomicLong(1_000);
    RunRegistryReporter rep =
        new RunRegistryReporter((id, json) -> sent.add(json), "run-1", "exp", "job-1", now::get);
    rep.onStep(0, 10, Map.of("val-core/arith/acc/mean@1", 0.25));
    now.addAndGet(4_000);
    rep.onStep(2, 10, Map.of("critic/score/mean", 0.5, "perf/throughput", 800.0));
    RunRegistryProgress p = RunRegistryProgress.fromJson(sent.get(1));
    assertEquals(2, p.step());
    assertEquals(0.5, p.reward());
    assertEquals(0.25, p.accuracy()); // the last validation carries over
    assertEquals(800.0, p.tokensPerSecond());
    assertEquals(2.0, p.secondsPerStep(), 1e-9); // 4 s for steps 1..2
    assertEquals(16.0, p.etaSeconds(), 1e-9); // 8 steps left
    assertEquals("job-1", p.job());
    rep.ended("finished");
    RunRegistryProgress end = RunRegistryProgress.fromJson(sent.get(2));
    assertEquals("finished", end.state());
    assertEquals(0.0, end.etaSeconds());
  }

  @Test
  void aFailingSinkNeverThrowsIntoTheRun() {
    RunRegistryReporter rep =
        new RunRegistryReporter(
            (id, json) -> {
              throw new IllegalStateException("actor gone");
            },
            "run-1",
            "exp",
            "",
            System::currentTimeMillis);
    rep.onStep(1, 2, Map.of());
    rep.ended("failed");
  }

  @Test
  void runIdsAreSafeForTheRegistry() {
    String id = RunRegistryReporter.runId("my exp/1", 42, 0);
    assertTrue(id.matches("[A-Za-z0-9_.:@/-]+"), id);
    assertTrue(id.startsWith("my_exp_1@"), id);
  }
}
