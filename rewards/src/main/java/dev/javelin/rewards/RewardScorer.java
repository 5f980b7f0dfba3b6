package dev.javelin.rewards;

import dev.javelin.rewards.exec.AbandoningPool;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Scores batches of rollouts in parallel on a bounded pool, with a time limit per call, and never
 * throws into the caller: an exception or a timeout scores 0 and is counted ({@code reward/errors},
 * {@code reward/timeouts}); the first few stack traces are logged. A batch whose calls hang costs
 * about twice the limit in all: after the first timeout the rest of the batch runs side by side.
 */
public final class RewardScorer implements BatchScorer {

  private static final System.Logger LOG = System.getLogger(RewardScorer.class.getName());
  private static final int MAX_CHUNK = 32;
  private static final int MAX_BURST = 256;

  private final RewardFunction fn;
  private final RewardScorerConfig config;
  private final AbandoningPool pool;
  private final AtomicInteger tracesLogged = new AtomicInteger();
  private final AtomicLong totalErrors = new AtomicLong();
  private final AtomicLong totalTimeouts = new AtomicLong();
  private final AtomicLong totalCalls = new AtomicLong();
  private final AtomicReference<String> firstError = new AtomicReference<>();

  /** A scorer for {@code fn}; close it to stop its threads. */
  public RewardScorer(RewardFunction fn, RewardScorerConfig config) {
    this.fn = fn;
    this.config = config;
    this.pool = new AbandoningPool("reward-" + fn.name(), config.parallelism());
  }

  /** Scores every input; one result per input, in order. Never throws. */
  @Override
  public ScoredBatch scoreAll(List<RewardInput> inputs) {
    long t0 = System.nanoTime();
    List<RewardInput> in = inputs == null ? List.of() : inputs;
    RewardResult[] out = new RewardResult[in.size()]; // (B,)
    Arrays.fill(out, RewardResult.zero());
    int[] counts = new int[2]; // [errors, timeouts]
    try {
      runJobs(in, out, counts);
    } catch (RuntimeException | Error e) {
      // Our own bug or a closed pool: still never fatal for the caller.
      counts[0] = in.size() - counts[1];
      Arrays.fill(out, RewardResult.zero());
      logTrace("reward scorer failed", e);
    }
    totalErrors.addAndGet(counts[0]);
    totalTimeouts.addAndGet(counts[1]);
    totalCalls.addAndGet(in.size());
    List<RewardResult> results = Arrays.asList(out);
    Map<String, Double> metrics =
        RewardMetrics.summarize(results, counts[0], counts[1], (System.nanoTime() - t0) / 1e9);
    return new ScoredBatch(results, metrics);
  }

  @Override
  public long totalCalls() {
    return totalCalls.get();
  }

  @Override
  public String functionName() {
    return fn.name();
  }

  @Override
  public Optional<String> firstError() {
    return Optional.ofNullable(firstError.get());
  }

  @Override
  public long totalErrors() {
    return totalErrors.get();
  }

  @Override
  public long totalTimeouts() {
    return totalTimeouts.get();
  }

  private void runJobs(List<RewardInput> in, RewardResult[] out, int[] counts) {
    if (in.isEmpty()) {
      return;
    }
    int p = config.parallelism();
    // Batch functions get one call per worker; others get small chunks of single calls so that
    // the queue hand-off is amortised while the time limit stays per call.
    int chunk =
        fn.prefersBatch()
            ? Math.max(1, (in.size() + p - 1) / p)
            : Math.max(1, Math.min(MAX_CHUNK, in.size() / (p * 4)));
    long perCall = config.timeout().toNanos();
    long limit = fn.prefersBatch() ? saturatedTimes(perCall, chunk) : perCall;
    Batch batch = new Batch(in, limit);
    for (int from = 0; from < in.size(); from += chunk) {
      batch.range(from, Math.min(in.size(), from + chunk));
    }
    batch.await();
    collect(batch.outcomes, out, counts);
  }

  private static long saturatedTimes(long a, long b) {
    try {
      return Math.multiplyExact(a, b);
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  /**
   * One {@link #scoreAll} call's jobs and watchdog. Until a call times out, inputs are scored in
   * chunks on the bounded pool; after the first timeout the function is known to hang, so the
   * inputs left are scored one per job on up to {@link #MAX_BURST} threads at once: hanging calls
   * then cost the time limit once, side by side, not one after the other.
   */
  private final class Batch implements ScoringJob.Requeue {
    final List<RewardInput> in;
    final long limit;
    final ScoringJob.Outcomes outcomes;
    final List<ScoringJob> jobs = new CopyOnWriteArrayList<>();
    volatile boolean wide;

    Batch(List<RewardInput> in, long limit) {
      this.in = in;
      this.limit = limit;
      this.outcomes = new ScoringJob.Outcomes(in.size());
    }

    @Override
    public void range(int from, int to) {
      if (wide && !fn.prefersBatch()) {
        for (int i = from; i < to; i++) {
          submit(new ScoringJob(fn, in, i, i + 1, limit, outcomes, this));
        }
      } else {
        submit(new ScoringJob(fn, in, from, to, limit, outcomes, this));
      }
    }

    private void submit(ScoringJob job) {
      jobs.add(job);
      pool.execute(job);
    }

    void await() {
      long pollNanos =
          Math.max(
              TimeUnit.MILLISECONDS.toNanos(1),
              Math.min(TimeUnit.MILLISECONDS.toNanos(20), config.timeout().toNanos() / 10));
      // Safety net: even if every worker were stuck, the batch returns after twice the time a
      // full pool needs at the per-call limit (and, once wide, after a few limits).
      long rounds =
          ((long) outcomes.results.length + config.parallelism() - 1) / config.parallelism() + 1;
      long deadline =
          System.nanoTime()
              + Math.min(
                  Long.MAX_VALUE / 4, saturatedTimes(config.timeout().toNanos(), 2 * rounds));
      try {
        while (!outcomes.done.await(pollNanos, TimeUnit.NANOSECONDS)) {
          long now = System.nanoTime();
          if (now - deadline > 0) {
            giveUp(jobs);
            return;
          }
          if (expireOverdue(now) && !wide) {
            deadline = Math.min(deadline, goWide(now));
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // unfinished inputs are counted as timeouts below
      }
    }

    /** Abandons the overdue calls' threads; true when there was one. */
    private boolean expireOverdue(long now) {
      boolean any = false;
      for (ScoringJob job : jobs) {
        Thread stuck = job.expireIfOverdue(now);
        if (stuck != null) {
          pool.abandon(stuck);
          any = true;
        }
      }
      return any;
    }

    /** Scatters the jobs left into single calls on extra threads; returns the new deadline. */
    private long goWide(long now) {
      wide = true;
      for (ScoringJob job : jobs) {
        job.scatter();
      }
      long left = outcomes.done.getCount();
      pool.burst((int) Math.min(MAX_BURST, left));
      long waves = (left + MAX_BURST - 1) / MAX_BURST;
      // Every wave of calls costs at most one limit; half a limit more covers the hand-off.
      return now + saturatedTimes(limit, waves + 1) - limit / 2;
    }
  }

  private void giveUp(List<ScoringJob> jobs) {
    LOG.log(System.Logger.Level.ERROR, "reward batch ran out of time; unfinished inputs score 0");
    for (ScoringJob job : jobs) {
      Thread busy = job.abandonNow();
      if (busy != null) {
        pool.abandon(busy);
      }
    }
  }

  private void collect(ScoringJob.Outcomes o, RewardResult[] out, int[] counts) {
    boolean loggedTimeout = false;
    for (int i = 0; i < out.length; i++) {
      if (o.results[i] != null && !o.timedOut[i]) {
        out[i] = o.results[i];
      } else if (o.errors[i] != null && !o.timedOut[i]) {
        counts[0]++;
        logTrace("reward function '" + fn.name() + "' failed", o.errors[i]);
      } else {
        counts[1]++;
        loggedTimeout = loggedTimeout || logTimeout();
      }
    }
  }

  private boolean logTimeout() {
    firstError.compareAndSet(null, "timed out after " + config.timeout());
    if (tracesLogged.getAndIncrement() < config.maxLoggedTraces()) {
      LOG.log(
          System.Logger.Level.WARNING,
          "reward function '" + fn.name() + "' timed out after " + config.timeout() + "; scored 0");
    }
    return true;
  }

  private void logTrace(String what, Throwable t) {
    firstError.compareAndSet(null, String.valueOf(t).lines().findFirst().orElse(""));
    if (tracesLogged.getAndIncrement() < config.maxLoggedTraces()) {
      LOG.log(System.Logger.Level.WARNING, what + "; scored 0", t);
    }
  }

  @Override
  public void close() {
    pool.close();
  }
}
