package dev.javelin.recipes.driver;

import dev.javelin.recipes.metrics.ConsoleProgress;
import dev.javelin.recipes.metrics.HeldOut;
import dev.javelin.recipes.metrics.MetricsJsonl;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.logging.Logger;

/**
 * Where every logged step of a loop (GRPO or SFT) goes, in order: metrics.jsonl, the {@link
 * StepListener}s (trainer.logger backends, the run registry), the console bar.
 */
final class StepLog {
  private static final Logger LOG = Logger.getLogger(StepLog.class.getName());
  private final MetricsJsonl metrics;
  private final ConsoleProgress console;
  private final List<StepListener> listeners = new ArrayList<>();

  StepLog(MetricsJsonl metrics, ConsoleProgress console) {
    this.metrics = metrics;
    this.console = console;
  }

  void addListener(StepListener listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /** Logs {@code step} of {@code total}; {@code heldOut} is the bar's held-out figure. */
  void log(int step, int total, Map<String, Double> m, double heldOut) {
    metrics.write(step, m);
    for (var it = listeners.iterator(); it.hasNext(); ) {
      StepListener l = it.next();
      try {
        l.onStep(step, total, Collections.unmodifiableMap(m));
      } catch (RuntimeException e) {
        LOG.warning("step listener failed and was dropped: " + e);
        it.remove();
      }
    }
    if (console == null) {
      return;
    }
    if (step == 0) {
      boolean acc = HeldOut.isAccuracy(m);
      console.message("step 0: " + HeldOut.label(acc) + " " + HeldOut.format(heldOut, acc));
    } else {
      console.step(step, total, m, heldOut);
    }
  }
}
