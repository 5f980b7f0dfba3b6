package dev.javelin.rewards.exec;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fixed-size pool of daemon threads whose stuck workers can be abandoned. Java cannot kill a
 * thread running a runaway reward function, so on a timeout the caller {@link #abandon}s the
 * worker: it is interrupted, told to exit after its current task, and a fresh worker takes its
 * place so capacity never shrinks. {@link #burst} adds temporary workers for a while, so that many
 * calls that only wait (a hanging reward) wait side by side instead of in turn.
 */
public final class AbandoningPool implements AutoCloseable {

  private final BlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();
  private final String name;
  private static final System.Logger LOG = System.getLogger(AbandoningPool.class.getName());

  private final AtomicInteger serial = new AtomicInteger();
  private final AtomicInteger abandonedCount = new AtomicInteger();
  private final AtomicInteger temporaries = new AtomicInteger();
  private volatile boolean closed;

  /** Starts {@code size} daemon workers named {@code name-N}. */
  public AbandoningPool(String name, int size) {
    if (size < 1) {
      throw new IllegalArgumentException("pool size must be >= 1, got " + size);
    }
    this.name = name;
    for (int i = 0; i < size; i++) {
      spawn();
    }
  }

  /** Queues a task. */
  public void execute(Runnable task) {
    if (closed) {
      throw new IllegalStateException("pool '" + name + "' is closed");
    }
    queue.add(task);
  }

  /**
   * Gives up on {@code worker} (the thread running a timed-out task): interrupts it, lets it exit
   * when it returns, and starts a replacement.
   */
  public void abandon(Thread worker) {
    if (worker instanceof Worker w && !w.abandoned) {
      w.abandoned = true;
      w.interrupt();
      int n = abandonedCount.incrementAndGet();
      if (n % 100 == 0) {
        LOG.log(
            System.Logger.Level.WARNING,
            "pool '"
                + name
                + "' has abandoned "
                + n
                + " stuck threads; is a reward function hanging?");
      }
      if (w.temporary) {
        w.leaveCount(); // not replaced, and no longer counted while it finishes its stuck call
      } else if (!closed) {
        spawn(false);
      }
    }
  }

  /**
   * Starts temporary workers until {@code count} of them are alive (at most); each exits once the
   * queue has been empty for a second.
   */
  public void burst(int count) {
    while (!closed) {
      int now = temporaries.get();
      if (now >= count) {
        return;
      }
      if (temporaries.compareAndSet(now, now + 1)) {
        spawn(true);
      }
    }
  }

  private void spawn() {
    spawn(false);
  }

  private void spawn(boolean temporary) {
    Worker w = new Worker(name + "-" + serial.incrementAndGet(), temporary);
    w.start();
  }

  @Override
  public void close() {
    closed = true;
    queue.clear();
    for (int i = 0; i < serial.get(); i++) {
      queue.add(() -> {}); // wake idle workers so they see `closed`
    }
  }

  private final class Worker extends Thread {
    final boolean temporary;
    volatile boolean abandoned;
    private final AtomicBoolean counted = new AtomicBoolean(true);

    Worker(String threadName, boolean temporary) {
      super(threadName);
      this.temporary = temporary;
      setDaemon(true);
    }

    @Override
    public void run() {
      try {
        work();
      } finally {
        leaveCount();
      }
    }

    void leaveCount() {
      if (temporary && counted.getAndSet(false)) {
        temporaries.decrementAndGet();
      }
    }

    private void work() {
      while (!closed && !abandoned) {
        Runnable task;
        try {
          task = queue.poll(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          if (abandoned || closed) {
            return;
          }
          Thread.interrupted();
          continue;
        }
        if (task == null && temporary) {
          return; // idle for a second: the burst is over
        }
        if (task != null && !abandoned) {
          task.run();
        }
        Thread.interrupted(); // a stale interrupt must not leak into the next task
      }
    }
  }
}
