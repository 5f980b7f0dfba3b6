package dev.javelin.backend.cpu;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * A fixed pool that runs an index range as chunks claimed dynamically: the caller and the workers
 * take chunks from a shared counter until none are left, and the caller waits only for chunks a
 * worker has already started. On a busy machine a worker the OS has not scheduled yet simply gets
 * nothing, instead of the caller blocking on it. OpenBLAS runs single-threaded inside the chunks,
 * so Java threads and BLAS threads never compete for the cores.
 */
final class Parallel implements AutoCloseable {
  /**
   * Chunks per thread: enough to rebalance when one thread is slowed down, few enough to be cheap.
   */
  private static final int CHUNKS_PER_THREAD = 4;

  /**
   * How long a caller whose chunks are done spins for the workers' last chunks before parking: a
   * kernel's chunks finish within microseconds of each other, and a park costs 50+ µs to wake from,
   * which thousands of small kernels per step (attention, decode) pay in full.
   */
  private static final long SPIN_NANOS = Long.getLong("javelin.cpu.spin_nanos", 100_000L);

  private static final long PARK_NANOS = 20_000L;

  /** Work on items {@code [from, to)} by worker {@code worker} (0 = the caller). */
  @FunctionalInterface
  interface Body {
    void run(int worker, int from, int to);
  }

  private final int threads;
  private final ExecutorService pool;

  Parallel(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1, got " + threads);
    }
    this.threads = threads;
    this.pool =
        threads == 1
            ? null
            : new ThreadPoolExecutor(
                threads - 1,
                threads - 1,
                0L,
                TimeUnit.MILLISECONDS,
                new SpinningQueue(),
                r -> {
                  Thread t = new Thread(r, "javelin-cpu-worker");
                  t.setDaemon(true);
                  return t;
                });
  }

  int threads() {
    return threads;
  }

  /**
   * Runs {@code body} over {@code [0, n)}, using up to {@link #threads()} threads, each chunk at
   * least {@code grain} items (so small work stays on the caller, where it is cheapest).
   */
  void forRange(int n, int grain, Body body) {
    int g = Math.max(1, grain);
    int parts = Math.min(threads, n / g);
    if (parts <= 1) {
      body.run(0, 0, n);
      return;
    }
    int chunks = Math.min(n / g, parts * CHUNKS_PER_THREAD);
    Job job = new Job(n, chunks, body);
    for (int w = 1; w < parts; w++) {
      int worker = w;
      pool.execute(() -> job.work(worker));
    }
    job.work(0);
    job.awaitAll();
  }

  /** One forRange call: a chunk counter shared by the threads that show up in time. */
  private static final class Job {
    private final int n;
    private final int chunks;
    private final Body body;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger done = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    Job(int n, int chunks, Body body) {
      this.n = n;
      this.chunks = chunks;
      this.body = body;
    }

    void work(int worker) {
      for (int c = next.getAndIncrement(); c < chunks; c = next.getAndIncrement()) {
        try {
          if (failure.get() == null) {
            body.run(worker, (int) ((long) n * c / chunks), (int) ((long) n * (c + 1) / chunks));
          }
        } catch (RuntimeException | Error e) {
          failure.compareAndSet(null, e);
        } finally {
          done.incrementAndGet();
        }
      }
    }

    /** Waits for chunks still running on workers; spins briefly, then parks. */
    void awaitAll() {
      long spinUntil = System.nanoTime() + SPIN_NANOS;
      while (done.get() < chunks) {
        if (System.nanoTime() < spinUntil) {
          Thread.onSpinWait();
        } else {
          LockSupport.parkNanos(PARK_NANOS);
        }
      }
      Throwable t = failure.get();
      if (t instanceof RuntimeException re) {
        throw re;
      }
      if (t instanceof Error err) {
        throw err;
      }
    }
  }

  /**
   * The workers' task queue: an idle worker polls it for {@link #SPIN_NANOS} before blocking, so
   * the next kernel's chunks (usually microseconds away) find it awake instead of paying a wake-up.
   */
  private static final class SpinningQueue extends LinkedBlockingQueue<Runnable> {

    @Override
    public Runnable take() throws InterruptedException {
      long until = System.nanoTime() + SPIN_NANOS;
      do {
        Runnable r = poll();
        if (r != null) {
          return r;
        }
        Thread.onSpinWait();
      } while (System.nanoTime() < until);
      return super.take();
    }
  }

  @Override
  public void close() {
    if (pool != null) {
      pool.shutdownNow();
      try {
        pool.awaitTermination(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
