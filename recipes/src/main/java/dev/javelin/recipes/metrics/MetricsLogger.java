package dev.javelin.recipes.metrics;

import java.io.IOException;
import java.util.Map;

/**
 * One metrics backend named in {@code trainer.logger}: told every logged step's metrics. A backend
 * that throws is wrapped by {@link GuardedLogger}, so it never stops training.
 */
public interface MetricsLogger extends AutoCloseable {
  /** The name in {@code trainer.logger} (also used in the {@code logger/<name>/errors} metric). */
  String name();

  /** Records one step's metrics; {@code step} is {@code training/global_step}. */
  void log(long step, Map<String, Double> metrics) throws IOException;

  /**
   * Ends the run.
   *
   * @param failed whether training stopped with an error
   * @param runDir the run directory (its latest checkpoint and report.html, when present)
   */
  default void finish(boolean failed, java.nio.file.Path runDir) throws IOException {}

  /** Re-opens whatever broke after a failed {@link #log}; the default does nothing. */
  default void reconnect() throws IOException {}

  @Override
  default void close() throws IOException {}
}
