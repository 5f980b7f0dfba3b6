package dev.javelin.rewards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RewardScorerTest {

  private static final RewardScorerConfig FAST =
      new RewardScorerConfig(2, Duration.ofMillis(200), 2);

  /** Scores the response length; throws on "boom", hangs on "hang", overflows on "deep". */
  static final class Tricky implements RewardFunction {
    final AtomicInteger calls = new AtomicInteger();
    volatile boolean released;

    @Override
    public String name() {
      return "tricky";
    }

    @Override
    public RewardResult score(RewardInput in) {
      calls.incrementAndGet();
      switch (in.response()) {
        case "boom" -> throw new IllegalStateException("boom");
        case "hang" -> spinForever();
        case "deep" -> recurse(0);
        case "null" -> {
          return null;
        }
        default -> {}
      }
      return new RewardResult(in.response().length(), Map.of("acc", in.response().length() > 1));
    }

    @SuppressWarnings("InfiniteRecursion") // deliberately overflows the stack
    private static int recurse(int n) {
      return recurse(n + 1) + 1;
    }

    private void spinForever() {
      // Ignores interrupts on purpose: a runaway user function the scorer cannot stop. It sleeps
      // rather than spins so as not to starve a shared CI machine, and the test releases it.
      while (!released) {
        try {
          Thread.sleep(5);
        } catch (InterruptedException e) {
          // swallowed, like a badly written user function would
        }
      }
    }
  }

  private static List<RewardInput> inputs(String... responses) {
    List<RewardInput> out = new ArrayList<>();
    for (String r : responses) {
      out.add(RewardInput.of("t", r, ""));
    }
    return out;
  }

  @Test
  void scoresInOrderWithMetrics() {
    try (RewardScorer s = new RewardScorer(new Tricky(), FAST)) {
      ScoredBatch b = s.scoreAll(inputs("a", "bb", "ccc", "dddd"));
      assertEquals(
          List.of(1.0, 2.0, 3.0, 4.0), b.results().stream().map(RewardResult::score).toList());
      assertEquals(2.5, b.metrics().get("reward/mean"));
      assertEquals(4.0, b.metrics().get("reward/max"));
      assertEquals(1.0, b.metrics().get("reward/min"));
      assertEquals(0.0, b.metrics().get("reward/errors"));
      assertEquals(0.0, b.metrics().get("reward/timeouts"));
      assertEquals(0.75, b.metrics().get("reward/extra/acc/mean"));
    }
  }

  @Test
  void exceptionsErrorsAndBadResultsScoreZeroAndAreCounted() {
    try (RewardScorer s = new RewardScorer(new Tricky(), FAST)) {
      ScoredBatch b = s.scoreAll(inputs("ok", "boom", "deep", "null", "fine"));
      assertEquals(
          List.of(2.0, 0.0, 0.0, 0.0, 4.0), b.results().stream().map(RewardResult::score).toList());
      assertEquals(3.0, b.metrics().get("reward/errors"));
      assertEquals(3, s.totalErrors());
    }
  }

  @Test
  void runawayCallsTimeOutAndThePoolKeepsItsCapacity() {
    Tricky fn = new Tricky();
    try (RewardScorer s = new RewardScorer(fn, FAST)) {
      long t0 = System.nanoTime();
      ScoredBatch b = s.scoreAll(inputs("hang", "hang", "ok", "hang"));
      assertEquals(3.0, b.metrics().get("reward/timeouts"));
      assertEquals(2.0, b.results().get(2).score());
      // Both original workers are stuck forever; replacements must still score the next batch.
      ScoredBatch next = s.scoreAll(inputs("a", "bb", "ccc"));
      assertEquals(
          List.of(1.0, 2.0, 3.0), next.results().stream().map(RewardResult::score).toList());
      assertEquals(0.0, next.metrics().get("reward/timeouts"));
      assertEquals(3, s.totalTimeouts());
      assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(20).toNanos(), "took too long");
    } finally {
      fn.released = true;
    }
  }

  @Test
  void aRunawayCallInsideAChunkOnlyLosesThatCall() {
    String[] responses = new String[40];
    for (int i = 0; i < responses.length; i++) {
      responses[i] = i == 3 || i == 25 ? "hang" : "x".repeat(i % 5 + 1);
    }
    Tricky fn = new Tricky();
    try (RewardScorer s =
        new RewardScorer(fn, new RewardScorerConfig(1, Duration.ofMillis(150), 1))) {
      ScoredBatch b = s.scoreAll(inputs(responses));
      assertEquals(2.0, b.metrics().get("reward/timeouts"));
      for (int i = 0; i < responses.length; i++) {
        double expected = i == 3 || i == 25 ? 0.0 : i % 5 + 1;
        assertEquals(expected, b.results().get(i).score(), "input " + i);
      }
    } finally {
      fn.released = true;
    }
  }

  @Test
  void runsCallsInParallelOnTheBoundedPool() throws InterruptedException {
    CountDownLatch bothStarted = new CountDownLatch(2);
    AtomicInteger concurrent = new AtomicInteger();
    AtomicInteger peak = new AtomicInteger();
    RewardFunction slow =
        new RewardFunction() {
          @Override
          public String name() {
            return "slow";
          }

          @Override
          public RewardResult score(RewardInput in) {
            peak.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
            bothStarted.countDown();
            try {
              bothStarted.await();
              Thread.sleep(20);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            concurrent.decrementAndGet();
            return RewardResult.of(1);
          }
        };
    try (RewardScorer s =
        new RewardScorer(slow, new RewardScorerConfig(2, Duration.ofSeconds(10), 2))) {
      ScoredBatch b = s.scoreAll(inputs("1", "2", "3", "4", "5", "6"));
      assertEquals(6.0, b.metrics().get("reward/mean") * 6);
    }
    assertEquals(2, peak.get(), "pool of 2 should run exactly 2 calls at once");
  }

  @Test
  void batchFunctionsGetChunksAndAWrongSizedAnswerIsAnError() {
    List<Integer> chunkSizes = new ArrayList<>();
    RewardFunction batch =
        new RewardFunction() {
          @Override
          public String name() {
            return "batch";
          }

          @Override
          public RewardResult score(RewardInput in) {
            throw new AssertionError("batch functions are called through scoreBatch");
          }

          @Override
          public List<RewardResult> scoreBatch(List<RewardInput> ins) {
            synchronized (chunkSizes) {
              chunkSizes.add(ins.size());
            }
            if (ins.get(0).response().equals("short")) {
              return List.of();
            }
            return ins.stream().map(i -> RewardResult.of(7)).toList();
          }

          @Override
          public boolean prefersBatch() {
            return true;
          }
        };
    try (RewardScorer s = new RewardScorer(batch, FAST)) {
      ScoredBatch b = s.scoreAll(inputs("a", "b", "c", "d", "e"));
      assertEquals(7.0, b.metrics().get("reward/mean"));
      assertEquals(List.of(2, 3), chunkSizes.stream().sorted().toList());
      ScoredBatch bad = s.scoreAll(inputs("short", "x")); // two chunks of one
      assertEquals(1.0, bad.metrics().get("reward/errors"));
      assertEquals(7.0, bad.results().get(1).score());
    }
  }

  @Test
  void nullOrEmptyInputIsAnEmptyBatch() {
    try (RewardScorer s = new RewardScorer(new Tricky(), FAST)) {
      assertEquals(0, s.scoreAll(null).results().size());
      assertEquals(0.0, s.scoreAll(List.of()).metrics().get("reward/count"));
    }
  }

  @Test
  void configValidationNamesTheField() {
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> new RewardScorerConfig(0, Duration.ofSeconds(1), 1));
    assertTrue(e.getMessage().contains("parallelism"));
    e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> new RewardScorerConfig(1, Duration.ZERO, 1));
    assertTrue(e.getMessage().contains("timeout"));
  }

  /** Sleeps (interruptibly) for a minute on every call: a reward waiting on a dead service. */
  static final class Sleeper implements RewardFunction {
    @Override
    public String name() {
      return "sleeper";
    }

    @Override
    public RewardResult score(RewardInput in) {
      try {
        Thread.sleep(60_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return RewardResult.zero();
    }
  }

  @Test
  void aBatchOfHangingCallsCostsAboutTwoLimitsNotOnePerCall() {
    // 160 calls at 0.5 s on 2 threads took 40 s when each hung call waited its turn.
    String[] responses = new String[160];
    java.util.Arrays.fill(responses, "x");
    try (RewardScorer s =
        new RewardScorer(new Sleeper(), new RewardScorerConfig(2, Duration.ofMillis(500), 1))) {
      long t0 = System.nanoTime();
      ScoredBatch b = s.scoreAll(inputs(responses));
      double seconds = (System.nanoTime() - t0) / 1e9;
      assertEquals(160.0, b.metrics().get("reward/timeouts"));
      assertTrue(seconds < 2.5, "160 hanging calls at a 0.5 s limit took " + seconds + " s");
    }
  }

  @Test
  void aFewHangingCallsAmongFastOnesCostTheLimitOnceAndLoseOnlyThemselves() {
    String[] responses = new String[200];
    for (int i = 0; i < responses.length; i++) {
      responses[i] = i % 20 == 7 ? "hang" : "x".repeat(i % 3 + 1);
    }
    Tricky fn = new Tricky();
    try (RewardScorer s =
        new RewardScorer(fn, new RewardScorerConfig(2, Duration.ofMillis(400), 1))) {
      long t0 = System.nanoTime();
      ScoredBatch b = s.scoreAll(inputs(responses));
      double seconds = (System.nanoTime() - t0) / 1e9;
      assertEquals(10.0, b.metrics().get("reward/timeouts"));
      for (int i = 0; i < responses.length; i++) {
        double expected = i % 20 == 7 ? 0.0 : i % 3 + 1;
        assertEquals(expected, b.results().get(i).score(), "input " + i);
      }
      assertTrue(seconds < 2.0, "10 hanging calls at a 0.4 s limit took " + seconds + " s");
      // The burst's threads do not hold the next batch back.
      ScoredBatch next = s.scoreAll(inputs("a", "bb"));
      assertEquals(List.of(1.0, 2.0), next.results().stream().map(RewardResult::score).toList());
    } finally {
      fn.released = true;
    }
  }
}
