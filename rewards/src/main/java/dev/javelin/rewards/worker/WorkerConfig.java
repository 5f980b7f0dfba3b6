package dev.javelin.rewards.worker;

import java.time.Duration;
import java.util.regex.Pattern;

/**
 * Settings of a {@link WorkerPool}.
 *
 * @param workers worker processes, at least 1
 * @param heap each worker's {@code -Xmx}, e.g. {@code 512m}
 * @param callTimeout time limit of one reward call; a worker past it is killed and replaced
 * @param batchTimeout time limit of one whole batch; rows unfinished by then are timeouts
 * @param maxStartFailures workers dying at start-up this many times in a row stop the run
 * @param maxWorkerThreads a worker whose live threads exceed this after a frame is replaced
 */
public record WorkerConfig(
    int workers,
    String heap,
    Duration callTimeout,
    Duration batchTimeout,
    int maxStartFailures,
    int maxWorkerThreads) {
  private static final Pattern HEAP = Pattern.compile("[1-9][0-9]{0,6}[kKmMgG]?");

  /** Validates every field. */
  public WorkerConfig {
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be >= 1, got " + workers);
    }
    if (heap == null || !HEAP.matcher(heap).matches()) {
      throw new IllegalArgumentException("heap must look like 512m or 2g, got " + heap);
    }
    positive("callTimeout", callTimeout);
    positive("batchTimeout", batchTimeout);
    if (maxStartFailures < 1 || maxWorkerThreads < 1) {
      throw new IllegalArgumentException("maxStartFailures and maxWorkerThreads must be >= 1");
    }
  }

  private static void positive(String what, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(what + " must be positive, got " + d);
    }
  }

  /** The default number of workers: the cores, at most 4. */
  public static int defaultWorkers() {
    return Math.min(4, Runtime.getRuntime().availableProcessors());
  }

  /** {@link #defaultWorkers()} workers of 512 MB, 10 s per call, 120 s per batch. */
  public static WorkerConfig defaults() {
    return new WorkerConfig(
        defaultWorkers(), "512m", Duration.ofSeconds(10), Duration.ofSeconds(120), 3, 256);
  }

  /** A copy with other time limits. */
  public WorkerConfig withTimeouts(Duration call, Duration batch) {
    return new WorkerConfig(workers, heap, call, batch, maxStartFailures, maxWorkerThreads);
  }

  /** A copy with another number of workers. */
  public WorkerConfig withWorkers(int n) {
    return new WorkerConfig(n, heap, callTimeout, batchTimeout, maxStartFailures, maxWorkerThreads);
  }

  /** A copy with another heap limit. */
  public WorkerConfig withHeap(String h) {
    return new WorkerConfig(
        workers, h, callTimeout, batchTimeout, maxStartFailures, maxWorkerThreads);
  }
}
