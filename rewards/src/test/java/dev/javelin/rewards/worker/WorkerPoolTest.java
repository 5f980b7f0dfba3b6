package dev.javelin.rewards.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.rewards.ProcessScorer;
import dev.javelin.rewards.RewardConfigException;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardSpec;
import dev.javelin.rewards.ScoredBatch;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Hostile rewards in real worker processes: each scoring call returns within its time limits with
 * the hostile rows counted, every other row scored, this JVM's thread count bounded and no worker
 * process left behind.
 */
class WorkerPoolTest {
  private static final int ROWS = 40;
  private static final WorkerConfig CONFIG =
      new WorkerConfig(2, "64m", Duration.ofSeconds(1), Duration.ofSeconds(30), 3, 256);

  private static RewardSpec hostile(String mode) {
    return new RewardSpec(HostileReward.class.getName(), null, Map.of("mode", mode));
  }

  /** Rows 0..ROWS-1; every tenth (from 5) is bad. */
  private static List<RewardInput> rows() {
    List<RewardInput> in = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      in.add(RewardInput.of(i % 10 == 5 ? "bad" : "ok", "x".repeat(i + 1), ""));
    }
    return in;
  }

  private record Run(
      ScoredBatch batch, double seconds, int threadsAfter, Set<Long> pids, String firstError) {}

  private static Run score(String mode, int batches) {
    int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
    long t0 = System.nanoTime();
    ScoredBatch last = null;
    Set<Long> pids;
    String firstError;
    int threadsDuring = 0;
    try (ProcessScorer s = new ProcessScorer(hostile(mode), CONFIG)) {
      for (int b = 0; b < batches; b++) {
        last = s.scoreAll(rows());
        threadsDuring =
            Math.max(threadsDuring, ManagementFactory.getThreadMXBean().getThreadCount());
      }
      pids = Set.copyOf(s.workerPids());
      firstError = s.firstError().orElse("");
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    // Three stream threads and a process reaper per worker, a few more while one is replaced.
    assertTrue(
        threadsDuring <= threadsBefore + 5 * CONFIG.workers() + 4,
        "threads before " + threadsBefore + ", while scoring " + threadsDuring);
    return new Run(last, seconds, threadsDuring, pids, firstError);
  }

  private static void assertScored(ScoredBatch b, boolean badRowsScore) {
    for (int i = 0; i < ROWS; i++) {
      double want = i % 10 == 5 && !badRowsScore ? 0 : i + 1;
      assertEquals(want, b.results().get(i).score(), "row " + i + " " + b.metrics());
    }
  }

  private static void assertNoWorkersLeft() throws InterruptedException {
    long until = System.nanoTime() + 10_000_000_000L;
    Set<ProcessHandle> left = Set.of();
    while (System.nanoTime() < until) {
      left = ProcessHandle.current().descendants().collect(Collectors.toSet());
      if (left.isEmpty()) {
        return;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("worker processes left behind: " + left);
  }

  @Test
  void systemExitIsAnErrorOfItsRowOnly() throws Exception {
    Run r = score("exit", 1);
    assertScored(r.batch(), false);
    assertEquals(4.0, r.batch().metrics().get("reward/errors"), r.batch().metrics().toString());
    assertEquals(0.0, r.batch().metrics().get("reward/timeouts"));
    assertEquals(4.0, r.batch().metrics().get("reward/worker_restarts"));
    assertTrue(r.seconds() < 30, "took " + r.seconds());
    assertNoWorkersLeft();
  }

  @Test
  void outOfMemoryIsAnErrorAndTheWorkerIsReplaced() throws Exception {
    Run r = score("oom", 1);
    assertScored(r.batch(), false);
    assertEquals(4.0, r.batch().metrics().get("reward/errors"), r.batch().metrics().toString());
    assertTrue(r.seconds() < 30, "took " + r.seconds());
    assertNoWorkersLeft();
  }

  @Test
  void aGarbledFrameIsAnErrorThatSaysSo() throws Exception {
    Run r = score("garble", 1);
    // A garbled stream cannot say whose results were still in the worker's buffer: those rows are
    // lost with it and counted as errors too, never scored wrongly.
    int zeros = 0;
    for (int i = 0; i < ROWS; i++) {
      double got = r.batch().results().get(i).score();
      if (i % 10 == 5) {
        assertEquals(0, got, "hostile row " + i);
      } else if (got != i + 1) {
        assertEquals(0, got, "row " + i);
      }
      zeros += got == 0 ? 1 : 0;
    }
    assertTrue(zeros >= 4, "errors " + zeros);
    assertEquals(zeros, r.batch().metrics().get("reward/errors"), r.batch().metrics().toString());
    assertTrue(
        r.firstError().startsWith("reward worker sent a malformed frame (frame length 2147483647"),
        r.firstError());
    assertTrue(r.seconds() < 30, "took " + r.seconds());
    assertNoWorkersLeft();
  }

  @Test
  void aHangingCallIsATimeoutAndItsWorkerIsKilled() throws Exception {
    Run r = score("hang", 1);
    assertScored(r.batch(), false);
    assertEquals(4.0, r.batch().metrics().get("reward/timeouts"), r.batch().metrics().toString());
    assertEquals(0.0, r.batch().metrics().get("reward/errors"));
    // Four 1 s limits on two workers, plus their replacements' start-up.
    assertTrue(r.seconds() < 20, "took " + r.seconds());
    assertNoWorkersLeft();
  }

  @Test
  void aHangInAFrameLargerThanThePipeIsStillCutOff() throws Exception {
    // 38 rows of 2 kB to a frame: the second frame in flight does not fit a 64 kB pipe, and its
    // writer waits while the worker hangs in the first; the time limit must not wait with it.
    List<RewardInput> in = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      in.add(RewardInput.of(i == 10 || i == 200 ? "bad" : "ok", "y".repeat(2000 + i), ""));
    }
    long t0 = System.nanoTime();
    try (ProcessScorer s = new ProcessScorer(hostile("hang"), CONFIG)) {
      ScoredBatch b = s.scoreAll(in);
      assertEquals(2.0, b.metrics().get("reward/timeouts"), b.metrics().toString());
      for (int i = 0; i < in.size(); i++) {
        assertEquals(i == 10 || i == 200 ? 0 : 2000 + i, b.results().get(i).score(), "row " + i);
      }
    }
    assertTrue((System.nanoTime() - t0) / 1e9 < 20);
    assertNoWorkersLeft();
  }

  @Test
  void leakedThreadsStayInTheWorkerWhichIsReplaced() throws Exception {
    Run r = score("threads", 3); // 100 threads per bad row: the limit of 256 is passed
    assertScored(r.batch(), true);
    assertEquals(0.0, r.batch().metrics().get("reward/errors"));
    assertTrue(r.seconds() < 30, "took " + r.seconds());
    assertNoWorkersLeft();
  }

  @Test
  void theBatchLimitBoundsAWholeBatchOfHangingCalls() throws Exception {
    WorkerConfig tight = CONFIG.withTimeouts(Duration.ofSeconds(1), Duration.ofMillis(1500));
    List<RewardInput> all = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      all.add(RewardInput.of("bad", "r" + i, ""));
    }
    long t0 = System.nanoTime();
    try (ProcessScorer s = new ProcessScorer(hostile("hang"), tight)) {
      long t1 = System.nanoTime();
      ScoredBatch b = s.scoreAll(all);
      double seconds = (System.nanoTime() - t1) / 1e9;
      assertEquals(20.0, b.metrics().get("reward/timeouts"), b.metrics().toString());
      assertTrue(seconds < 3, "a batch limit of 1.5 s took " + seconds + " s");
    }
    assertTrue((System.nanoTime() - t0) / 1e9 < 30);
    assertNoWorkersLeft();
  }

  @Test
  void workersThatKeepDyingAtStartUpStopWithOneLineNamingTheReward() throws Exception {
    RewardConfigException e =
        assertThrows(
            RewardConfigException.class, () -> new ProcessScorer(hostile("exit_at_start"), CONFIG));
    String msg = e.getMessage();
    assertTrue(msg.contains(HostileReward.class.getName()), msg);
    assertTrue(msg.contains("exited at start-up 3 times in a row"), msg);
    assertTrue(msg.contains("code 1") && msg.contains("cannot reach the grading service"), msg);
    assertEquals(1, msg.lines().count(), msg);
    assertNoWorkersLeft();
  }

  @Test
  void aRewardThatCannotBeBuiltFailsAtStartWithOneLine() throws Exception {
    RewardConfigException e =
        assertThrows(
            RewardConfigException.class,
            () -> new ProcessScorer(new RewardSpec("no.such.Reward", null, Map.of()), CONFIG));
    assertTrue(e.getMessage().contains("no.such.Reward"), e.getMessage());
    // the worker's frame carries the field, so the driver can name it in its own terms
    assertEquals(RewardConfigException.Field.CLASS_NAME, e.field().orElseThrow(), e.getMessage());
    assertNoWorkersLeft();
  }
}
