package dev.javelin.rewards.worker;

import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardResult;
import dev.javelin.rewards.worker.WorkerProcess.Event;
import dev.javelin.rewards.worker.WorkerProcess.State;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/**
 * One batch on a {@link WorkerPool}: hands workers frames of rows (up to {@value #MAX_ROWS} rows or
 * about {@value #SOFT_BYTES} bytes each, two frames ahead so that a worker never waits for its
 * next), records results as they come, and enforces the time limits. A row's call is timed from the
 * worker's previous results (workers report finished rows at least every few tens of milliseconds);
 * a worker past the limit is killed and replaced, the row counted as a timeout and the rows it had
 * not reached scored elsewhere. A worker that dies costs its row in progress, counted as an error.
 * At the batch limit every unfinished row is a timeout.
 */
final class Dispatch {
  static final int MAX_ROWS = 256;
  static final int SOFT_BYTES = 1 << 20;
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  private final WorkerPool pool;
  private final List<RewardInput> in;
  private final RewardResult[] results;
  private final String[] errors;
  private final boolean[] timedOut;
  private final Deque<Integer> queue = new ArrayDeque<>();
  private final int rowsPerFrame;
  private final long callNanos;
  private final long deadline;
  private final long restartsBefore;
  private int left;
  private int maxThreads;

  Dispatch(WorkerPool pool, List<RewardInput> in) {
    this.pool = pool;
    this.in = in;
    int n = in.size();
    results = new RewardResult[n];
    Arrays.fill(results, RewardResult.zero());
    errors = new String[n];
    timedOut = new boolean[n];
    for (int i = 0; i < n; i++) {
      queue.add(i);
    }
    left = n;
    int spread = pool.slots.length * 4; // several frames per worker keep all of them busy
    rowsPerFrame = Math.max(1, Math.min(MAX_ROWS, (n + spread - 1) / spread));
    callNanos = pool.config.callTimeout().toNanos();
    deadline = System.nanoTime() + pool.config.batchTimeout().toNanos();
    restartsBefore = pool.restarts();
  }

  BatchOutcome run() {
    while (left > 0) {
      assign();
      Event e = pool.poll(POLL_NANOS);
      while (e != null) {
        pool.handle(e, this);
        e = pool.events.poll();
      }
      long now = System.nanoTime();
      pool.checkStarting(now);
      expireOverdue(now);
      if (now - deadline >= 0 || Thread.currentThread().isInterrupted()) {
        expireAll();
      }
    }
    return new BatchOutcome(
        results, errors, timedOut, pool.restarts() - restartsBefore, maxThreads);
  }

  private void assign() {
    // A function that scores its frame in one call is timed per frame: one frame at a time.
    int ahead = pool.prefersBatch ? 1 : 2;
    for (WorkerProcess w : pool.slots) {
      while (!queue.isEmpty()
          && w.frames < ahead
          && (w.state == State.IDLE || w.state == State.BUSY)) {
        send(w);
      }
    }
  }

  private void send(WorkerProcess w) {
    StringBuilder rows = new StringBuilder();
    int k = 0;
    int limit = Math.min(rowsPerFrame, queue.size());
    int[] picked = new int[limit];
    while (k < limit && (k == 0 || rows.length() < SOFT_BYTES)) {
      int i = queue.poll();
      if (k > 0) {
        rows.append(',');
      }
      Wire.row(rows, in.get(i));
      picked[k++] = i;
    }
    if (w.frames == 0) {
      w.lastProgress = System.nanoTime(); // an idle worker starts on this frame now
    }
    for (int j = 0; j < k; j++) {
      w.inflight.add(picked[j]);
    }
    w.frames++;
    w.state = State.BUSY;
    w.send(Wire.scoreFrame(rows)); // a worker that died meanwhile reports its end: rows go back
  }

  /** Records a {@code done} frame from {@code w}. */
  void results(WorkerProcess w, Map<String, Object> body) {
    List<Wire.Item> items;
    try {
      items = Wire.items(body);
    } catch (IllegalArgumentException e) {
      items = null;
    }
    if (items == null || items.size() > w.inflight.size()) {
      died(w, "reward worker sent a malformed frame");
      pool.retire(w, true);
      return;
    }
    for (Wire.Item item : items) {
      int row = w.inflight.poll();
      if (item instanceof Wire.Scored s) {
        results[row] = s.result();
      } else if (item instanceof Wire.Failed f) {
        errors[row] = f.message();
      }
      left--;
    }
    w.lastProgress = System.nanoTime();
    w.threads = Wire.threads(body);
    maxThreads = Math.max(maxThreads, w.threads);
    if (Wire.endsFrame(body) && --w.frames <= 0) {
      w.frames = 0;
      w.state = State.IDLE;
    }
    if (Wire.endsFrame(body) && w.threads > pool.config.maxWorkerThreads()) {
      pool.warnThreads(w);
      retire(w);
    }
  }

  /** {@code w} ended while scoring: its row in progress is an error, the rest go back. */
  void died(WorkerProcess w, String why) {
    finishCurrent(w, row -> errors[row] = why);
  }

  private void expireOverdue(long now) {
    for (WorkerProcess w : pool.slots) {
      if (w.state != State.BUSY || w.inflight.isEmpty()) {
        continue;
      }
      long limit = pool.prefersBatch ? callNanos * w.inflight.size() : callNanos;
      if (now - w.lastProgress > limit) {
        finishCurrent(w, row -> timedOut[row] = true);
        pool.retire(w, true);
      }
    }
  }

  /** Out of time: every unfinished row is a timeout and busy workers are replaced. */
  private void expireAll() {
    for (WorkerProcess w : pool.slots) {
      if (w.state == State.BUSY) {
        for (int row : w.inflight) {
          timedOut[row] = true;
          left--;
        }
        w.inflight.clear();
        w.frames = 0;
        pool.retire(w, true);
      }
    }
    for (int row : queue) {
      timedOut[row] = true;
      left--;
    }
    queue.clear();
  }

  /** Replaces {@code w}, putting the rows it had not answered back at the head of the queue. */
  private void retire(WorkerProcess w) {
    requeue(w);
    pool.retire(w, true);
  }

  /**
   * Marks {@code w}'s row in progress with {@code mark} (every row sent, for a function that scores
   * its frame in one call) and puts the rows after it back at the head of the queue.
   */
  private void finishCurrent(WorkerProcess w, IntConsumer mark) {
    int upTo = pool.prefersBatch ? w.inflight.size() : Math.min(1, w.inflight.size());
    for (int j = 0; j < upTo; j++) {
      mark.accept(w.inflight.poll());
      left--;
    }
    requeue(w);
  }

  private void requeue(WorkerProcess w) {
    Iterator<Integer> back = w.inflight.descendingIterator();
    while (back.hasNext()) {
      queue.addFirst(back.next());
    }
    w.inflight.clear();
    w.frames = 0;
  }
}
