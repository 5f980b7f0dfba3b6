package dev.javelin.recipes.driver;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * Ctrl-C and SIGTERM handling. Once the loop runs, a signal only raises a flag: the loop finishes
 * its step, saves a checkpoint and returns, and the JVM then exits normally. (A JVM shutdown hook
 * would be too late: Ray's own hook shuts the runtime down at the same time, under the step in
 * flight.) Before the loop's first step (start-up, resuming, the validation of step 0) there is
 * nothing new to save, so a signal exits at once and says so. A second signal exits at once.
 * SIGTERM is handled like SIGINT, so a run started in the background (which inherits SIGINT
 * ignored) and a stopped Ray job both stop with a checkpoint. Tests request a stop directly.
 */
public final class StopSignal {
  /** Exit code of a run ended by a signal before or after its loop (128 + SIGINT). */
  static final int SIGNALLED = 130;

  private enum Phase {
    STARTING,
    RUNNING,
    DONE
  }

  private final AtomicBoolean requested = new AtomicBoolean();
  private final AtomicReference<Phase> phase = new AtomicReference<>(Phase.STARTING);
  private final CountDownLatch finished = new CountDownLatch(1);

  /** A signal raised by SIGINT (Ctrl-C) and SIGTERM. */
  public static StopSignal onInterrupt() {
    StopSignal s = new StopSignal();
    Runnable handler = () -> s.onSignal(System.err, PosixSignals::dieByInterrupt);
    // Where the platform lacks a signal, Ctrl-C just kills the run.
    PosixSignals.handle("INT", handler);
    PosixSignals.handle("TERM", handler);
    return s;
  }

  /**
   * What one delivered signal does: before the loop, say that nothing was trained and {@code exit};
   * in the loop, ask for a stop after the step (a second signal exits); after it, exit.
   */
  void onSignal(PrintStream err, IntConsumer exit) {
    switch (phase.get()) {
      case STARTING -> {
        err.println("\ninterrupted during start-up: exiting (no step ran, nothing to save)");
        exit.accept(SIGNALLED);
      }
      case DONE -> {
        err.println("\ninterrupted after the last checkpoint: exiting");
        exit.accept(SIGNALLED);
      }
      case RUNNING -> {
        if (requested.getAndSet(true)) {
          err.println("\ninterrupted again: exiting without a checkpoint");
          exit.accept(SIGNALLED);
        } else {
          err.println("\ninterrupted: finishing the step and saving a checkpoint");
        }
      }
    }
  }

  /** Called by a loop as its first step starts: from here a signal saves a checkpoint. */
  public void running() {
    phase.compareAndSet(Phase.STARTING, Phase.RUNNING);
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
    phase.set(Phase.DONE);
    finished.countDown();
  }

  /** Waits up to {@code seconds} for {@link #finished}; false on timeout. */
  public boolean awaitFinished(long seconds) throws InterruptedException {
    return finished.await(seconds, TimeUnit.SECONDS);
  }
}
