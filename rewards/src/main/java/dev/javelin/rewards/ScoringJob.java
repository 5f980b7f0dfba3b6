package dev.javelin.rewards;

import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Scores {@code inputs[from, to)} on one pool thread, one call per input (or one {@code scoreBatch}
 * call for batch functions), recording each outcome in the shared {@link Outcomes}. Several inputs
 * per job amortise the queue hand-off; the time limit still applies per call: when the watchdog
 * finds the current call overdue it marks that input timed out, abandons this job (and its thread)
 * and re-queues the inputs not yet scored as a new job. Once a batch has seen a timeout the scorer
 * {@link #scatter}s its jobs, so that the inputs left are scored one per job, side by side.
 */
final class ScoringJob implements Runnable {

  private final RewardFunction fn;
  private final List<RewardInput> inputs;
  private final int from;
  private final int to;
  private final long limitNanos;
  private final Outcomes outcomes;
  private final Requeue requeue;
  private int end; // guarded by this; scatter() lowers it, inputs from it on went to other jobs
  private boolean abandoned; // guarded by this
  private int current = -1; // guarded by this; index of the call in progress, -1 before start
  private long callStart; // guarded by this
  private boolean inCall; // guarded by this
  private volatile Thread runner;

  ScoringJob(
      RewardFunction fn,
      List<RewardInput> inputs,
      int from,
      int to,
      long limitNanos,
      Outcomes outcomes,
      Requeue requeue) {
    this.fn = fn;
    this.inputs = inputs;
    this.from = from;
    this.to = to;
    this.end = to;
    this.limitNanos = limitNanos;
    this.outcomes = outcomes;
    this.requeue = requeue;
  }

  @Override
  public void run() {
    runner = Thread.currentThread();
    if (fn.prefersBatch()) {
      runBatch();
      return;
    }
    for (int i = from; i < to; i++) {
      if (!begin(i)) {
        return;
      }
      RewardResult r = null;
      Throwable err = null;
      try {
        r = fn.score(inputs.get(i));
        if (r == null) {
          throw new IllegalStateException(fn.name() + " returned a null RewardResult");
        }
      } catch (Throwable t) { // a reward function must never take the run down, Errors included
        err = t;
      }
      if (!finish(i, r, err)) {
        return;
      }
    }
  }

  private void runBatch() {
    if (!begin(from)) {
      return;
    }
    List<RewardResult> out = null;
    Throwable err = null;
    try {
      out = fn.scoreBatch(inputs.subList(from, to));
      if (out == null || out.size() != to - from || out.contains(null)) {
        throw new IllegalStateException(
            fn.name() + ".scoreBatch returned a wrong result list for " + (to - from) + " inputs");
      }
    } catch (Throwable t) {
      err = t;
      out = null;
    }
    synchronized (this) {
      if (abandoned) {
        return;
      }
      for (int i = from; i < to; i++) {
        outcomes.record(i, out == null ? null : out.get(i - from), err);
      }
      inCall = false;
    }
  }

  private synchronized boolean begin(int i) {
    if (abandoned || i >= end) {
      return false;
    }
    current = i;
    callStart = System.nanoTime();
    inCall = true;
    return true;
  }

  private synchronized boolean finish(int i, RewardResult r, Throwable err) {
    if (abandoned) {
      return false;
    }
    outcomes.record(i, r, err);
    inCall = false;
    return true;
  }

  /**
   * Called by the watchdog: if the call in progress has run past its limit, records the timeout(s),
   * re-queues the inputs after it and returns the thread to abandon; otherwise null.
   */
  synchronized Thread expireIfOverdue(long now) {
    if (abandoned || !inCall || now - callStart <= limitNanos) {
      return null;
    }
    abandoned = true;
    int timedOutTo = fn.prefersBatch() ? to : current + 1;
    for (int i = current; i < timedOutTo; i++) {
      outcomes.timeout(i);
    }
    if (timedOutTo < end) {
      requeue.range(timedOutTo, end);
    }
    return runner;
  }

  /**
   * Hands the inputs this job has not started to {@link Requeue#range} (which then scores them one
   * per job) and lets this job end after its call in progress. Batch jobs are left alone: their
   * inputs are one call.
   */
  synchronized void scatter() {
    if (abandoned || fn.prefersBatch()) {
      return;
    }
    int next = current < 0 ? from : current + 1;
    if (next >= end) {
      return;
    }
    int oldEnd = end;
    end = next;
    if (current < 0) {
      abandoned = true; // never started: nothing of it is left to run
    }
    requeue.range(next, oldEnd);
  }

  /** Where a job hands inputs it will not score itself. */
  interface Requeue {
    /** Queues {@code inputs[from, to)} for scoring. */
    void range(int from, int to);
  }

  /**
   * Stops this job for good (the whole batch ran out of time): inputs it has not recorded stay
   * empty and count as timeouts. Returns the thread to abandon if a call is in progress.
   */
  synchronized Thread abandonNow() {
    boolean busy = !abandoned && inCall;
    abandoned = true;
    return busy ? runner : null;
  }

  /** Per-input outcomes shared by the jobs of one batch; counts down one latch per input. */
  static final class Outcomes {
    final RewardResult[] results; // (B,)
    final Throwable[] errors; // (B,)
    final boolean[] timedOut; // (B,)
    final CountDownLatch done;

    Outcomes(int n) {
      results = new RewardResult[n];
      errors = new Throwable[n];
      timedOut = new boolean[n];
      done = new CountDownLatch(n);
    }

    void record(int i, RewardResult r, Throwable err) {
      results[i] = r;
      errors[i] = err;
      done.countDown();
    }

    void timeout(int i) {
      timedOut[i] = true;
      done.countDown();
    }
  }
}
