package dev.javelin.recipes.metrics;

import java.util.Map;
import java.util.function.LongSupplier;
import java.util.logging.Logger;

/**
 * Keeps a failing backend from stopping training: the first error is logged, later ones are only
 * counted, and the backend is reconnected after a bounded exponential backoff (1 s doubling to 60
 * s). Steps that arrive while it is down are dropped for that backend; metrics.jsonl has them all.
 */
public final class GuardedLogger {
  private static final Logger LOG = Logger.getLogger(GuardedLogger.class.getName());
  static final long FIRST_BACKOFF_NANOS = 1_000_000_000L;
  static final long MAX_BACKOFF_NANOS = 60_000_000_000L;
  private final MetricsLogger backend;
  private final LongSupplier nanoClock;
  private long errors;
  private boolean down;
  private long backoff = FIRST_BACKOFF_NANOS;
  private long retryAt;

  public GuardedLogger(MetricsLogger backend, LongSupplier nanoClock) {
    this.backend = backend;
    this.nanoClock = nanoClock;
  }

  public GuardedLogger(MetricsLogger backend) {
    this(backend, System::nanoTime);
  }

  public String name() {
    return backend.name();
  }

  /** Errors so far (each failed log, reconnect or finish counts once). */
  public long errors() {
    return errors;
  }

  /** Logs unless the backend is down and its backoff has not passed. */
  public void log(long step, Map<String, Double> metrics) {
    if (down) {
      if (nanoClock.getAsLong() - retryAt < 0) {
        return;
      }
      try {
        backend.reconnect();
      } catch (Exception e) {
        failed(e);
        return;
      }
    }
    try {
      backend.log(step, metrics);
      if (down) {
        LOG.info("metrics logger " + name() + " is back after " + errors + " error(s)");
      }
      down = false;
      backoff = FIRST_BACKOFF_NANOS;
    } catch (Exception e) {
      failed(e);
    }
  }

  /** Tells the backend how the run ended, then closes it; errors are counted, never thrown. */
  public void finish(boolean failed, java.nio.file.Path runDir) {
    try {
      if (down) {
        backend.reconnect();
      }
      backend.finish(failed, runDir);
    } catch (Exception e) {
      failed(e);
    }
    try {
      backend.close();
    } catch (Exception e) {
      failed(e);
    }
  }

  private void failed(Exception e) {
    errors++;
    if (errors == 1) {
      LOG.warning(
          "metrics logger "
              + name()
              + " failed ("
              + e
              + "); training goes on, metrics.jsonl keeps every step, retrying with backoff");
    }
    if (down) {
      backoff = Math.min(MAX_BACKOFF_NANOS, backoff * 2);
    }
    down = true;
    retryAt = nanoClock.getAsLong() + backoff;
  }
}
