package dev.javelin.recipes.driver;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Ctrl-C handling. SIGINT and SIGTERM only raise a flag: the loop finishes its step, saves a
 * checkpoint and returns, and the JVM then exits normally. (A JVM shutdown hook would be too late:
 * Ray's own hook shuts the runtime down at the same time, under the step in flight.) A second
 * signal exits at once. Tests request a stop directly.
 */
public final class StopSignal {
  private final AtomicBoolean requested = new AtomicBoolean();
  private final CountDownLatch finished = new CountDownLatch(1);

  /** A signal raised by SIGINT (Ctrl-C) and SIGTERM. */
  public static StopSignal onInterrupt() {
    StopSignal s = new StopSignal();
    Runnable handler =
        () -> {
          if (s.requested.getAndSet(true)) {
            System.err.println("\ninterrupted again: exiting without a checkpoint");
            Runtime.getRuntime().halt(130);
          }
          System.err.println("\ninterrupted: finishing the step and saving a checkpoint");
        };
    // Where the platform lacks a signal, Ctrl-C just kills the run.
    PosixSignals.handle("INT", handler);
    PosixSignals.handle("TERM", handler);
    return s;
  }

  /** Asks the loop to stop after the current step. */
  public void request() {
    requested.set(true);
  }

  public boolean requested() {
    return requested.get();
  }

  /** Called by the loop when it has saved and is about to return. */
  public void finished() {
    finished.countDown();
  }

  /** Waits up to {@code seconds} for {@link #finished}; false on timeout. */
  public boolean awaitFinished(long seconds) throws InterruptedException {
    return finished.await(seconds, TimeUnit.SECONDS);
  }
}
