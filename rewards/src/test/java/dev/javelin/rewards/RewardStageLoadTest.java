package dev.javelin.rewards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * The reward stage under load: 10,000 responses of which 1% are hostile, in the scorer the training
 * loop uses. Run in its own 1 GB test JVM (the {@code reward-load} execution) so that the unbounded
 * allocation meets a known heap.
 *
 * <p>Checked: the batch finishes within {@link #WALL_LIMIT}; every hostile reward call is counted
 * (a throw or an out-of-memory as an error, a call that never returns as a timeout after the
 * per-call limit); every other response, hostile outputs included, scores exactly what it scores
 * alone.
 */
class RewardStageLoadTest {
  private static final Logger LOG = Logger.getLogger(RewardStageLoadTest.class.getName());
  private static final int N = 10_000;
  private static final int PER_KIND = 15; // 7 kinds x 15 = 105 hostile inputs, ~1%
  private static final Duration CALL_LIMIT = Duration.ofSeconds(2); // reward.timeout_s
  private static final Duration WALL_LIMIT = Duration.ofSeconds(90);
  private static final RewardRegistry REGISTRY = RewardRegistry.load();

  /** The kinds of hostile input. */
  enum Kind {
    TEN_MB_OUTPUT,
    NESTED_BRACES,
    MILLION_DIGITS,
    INVALID_UTF8,
    THROWS,
    SLEEPS_FOREVER,
    ALLOCATES_WITHOUT_BOUND
  }

  private static RewardFunction hostileReward(String name, Runnable body) {
    return new RewardFunction() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public RewardResult score(RewardInput in) {
        body.run();
        return RewardResult.of(1.0);
      }
    };
  }

  private static void sleepForever() {
    while (true) { // ignores interrupts: the worst case, a call that can only be abandoned
      try {
        Thread.sleep(Long.MAX_VALUE);
      } catch (InterruptedException ignored) {
        // keep sleeping
      }
    }
  }

  @SuppressWarnings("ModifiedButNotUsed") // holding the arrays is the point: exhaust the heap
  private static void allocateWithoutBound() {
    List<long[]> hoard = new ArrayList<>();
    while (true) {
      hoard.add(new long[1 << 17]); // 1 MiB at a time, until the heap says no
    }
  }

  private static RewardFunction dispatcher() {
    return DataSourceDispatcher.of(
        Map.of(
            "openai/gsm8k", REGISTRY.create("gsm8k", Map.of()),
            "math", REGISTRY.create("math", Map.of()),
            "hostile/throws",
                hostileReward(
                    "throws",
                    () -> {
                      throw new IllegalStateException("reward bug");
                    }),
            "hostile/sleeps", hostileReward("sleeps", RewardStageLoadTest::sleepForever),
            "hostile/allocates",
                hostileReward("allocates", RewardStageLoadTest::allocateWithoutBound)));
  }

  private static RewardInput hostile(Kind kind, int i) {
    return switch (kind) {
      case TEN_MB_OUTPUT -> RewardInput.of("math", "9".repeat(10 << 20) + " \\boxed{7}", "7");
      case NESTED_BRACES ->
          RewardInput.of("math", "\\boxed{" + "{".repeat(100_000) + "}".repeat(100_000), "3");
      case MILLION_DIGITS -> RewardInput.of("openai/gsm8k", "#### " + "7".repeat(1_000_000), "7");
      case INVALID_UTF8 ->
          RewardInput.of("openai/gsm8k", "\uD800#### 4\uFFFD\uDFFF" + (char) 0xC3, "4");
      case THROWS -> RewardInput.of("hostile/throws", "#### " + i, "1");
      case SLEEPS_FOREVER -> RewardInput.of("hostile/sleeps", "#### " + i, "1");
      case ALLOCATES_WITHOUT_BOUND -> RewardInput.of("hostile/allocates", "#### " + i, "1");
    };
  }

  private static RewardInput ordinary(Random rnd, int i) {
    int answer = rnd.nextInt(1000);
    boolean right = rnd.nextBoolean();
    String said = Integer.toString(right ? answer : answer + 1);
    return i % 2 == 0
        ? RewardInput.of("openai/gsm8k", "So the total is " + said + ".\n#### " + said, "" + answer)
        : RewardInput.of(
            "math", "We get $\\boxed{\\frac{" + said + "}{2}}$", "\\frac{" + answer + "}{2}");
  }

  @Test
  void tenThousandResponsesWithOnePercentHostile() {
    Random rnd = new Random(20261202);
    List<RewardInput> inputs = new ArrayList<>(N);
    List<Kind> kinds = new ArrayList<>(N);
    for (int i = 0; i < N; i++) {
      inputs.add(ordinary(rnd, i));
      kinds.add(null);
    }
    for (Kind k : Kind.values()) {
      for (int j = 0; j < PER_KIND; j++) {
        int at = rnd.nextInt(N);
        while (kinds.get(at) != null) {
          at = rnd.nextInt(N);
        }
        inputs.set(at, hostile(k, at));
        kinds.set(at, k);
      }
    }
    RewardFunction fn = dispatcher();
    RewardScorerConfig config = RewardScorerConfig.defaults().withTimeout(CALL_LIMIT);
    long t0 = System.nanoTime();
    ScoredBatch batch;
    try (RewardScorer scorer = new RewardScorer(fn, config)) {
      batch = scorer.scoreAll(inputs);
    }
    Duration took = Duration.ofNanos(System.nanoTime() - t0);
    LOG.info(
        () ->
            "scored "
                + N
                + " (105 hostile) in "
                + took.toMillis()
                + " ms on "
                + config.parallelism()
                + " threads: "
                + batch.metrics());
    assertTrue(took.compareTo(WALL_LIMIT) < 0, "took " + took);
    assertEquals(N, batch.results().size());
    // A call that allocates without bound ends in OutOfMemoryError, or as a timeout when the
    // collector thrashes past the call limit first (more likely once hung calls run side by
    // side): each hostile call is counted exactly once, as one or the other.
    double errors = batch.metrics().get("reward/errors");
    double timeouts = batch.metrics().get("reward/timeouts");
    assertEquals(3.0 * PER_KIND, errors + timeouts, "throws + sleeps + allocations, once each");
    assertTrue(errors >= PER_KIND, "every throwing call is an error: " + errors);
    assertTrue(timeouts >= PER_KIND, "every sleeping call is a timeout: " + timeouts);
    for (int i = 0; i < N; i++) {
      Kind k = kinds.get(i);
      RewardResult got = batch.results().get(i);
      if (k == Kind.THROWS || k == Kind.SLEEPS_FOREVER || k == Kind.ALLOCATES_WITHOUT_BOUND) {
        assertEquals(0.0, got.score(), k + " at " + i);
      } else {
        assertEquals(alone(fn, inputs.get(i), k), got, (k == null ? "ordinary" : k) + " at " + i);
      }
    }
  }

  /** The result of scoring one input by itself: a direct call, or a one-input batch if hostile. */
  private static RewardResult alone(RewardFunction fn, RewardInput in, Kind kind) {
    if (kind == null) {
      return fn.score(in);
    }
    try (RewardScorer solo =
        new RewardScorer(fn, RewardScorerConfig.defaults().withTimeout(CALL_LIMIT))) {
      ScoredBatch b = solo.scoreAll(List.of(in));
      assertEquals(
          0.0,
          b.metrics().get("reward/errors") + b.metrics().get("reward/timeouts"),
          kind + " alone");
      return b.results().get(0);
    }
  }
}
