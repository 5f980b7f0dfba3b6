package dev.javelin.recipes.metrics;

import dev.javelin.grpo.MetricNames;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;

/**
 * The console line: a progress bar with step, reward, held-out accuracy, tokens/s and ETA. On a
 * terminal the line is redrawn in place; otherwise (logs, CI) one line is printed per step.
 */
public final class ConsoleProgress {
  private static final int BAR = 24;
  private static final int LOG_LINES = 50;
  private final PrintStream out;
  private final boolean inPlace;
  private long startNanos = System.nanoTime();
  private int firstStep;
  private double lastAccuracy = Double.NaN;
  private boolean lastIsAccuracy = true;

  /**
   * @param firstStep the first step this process runs (for the ETA of a resumed run)
   */
  public ConsoleProgress(PrintStream out, boolean inPlace, int firstStep) {
    this.out = out;
    this.inPlace = inPlace;
    this.firstStep = firstStep;
  }

  /** For {@code System.out}, redrawing in place when a console is attached. */
  @SuppressWarnings("SystemConsoleNull") // on Java 17, null means no terminal (a pipe, a file)
  public static ConsoleProgress stdout(int firstStep) {
    return new ConsoleProgress(System.out, System.console() != null, firstStep);
  }

  /** A run that resumed from the checkpoint of {@code globalStep}: the ETA counts from here. */
  public void resumedAt(int globalStep) {
    firstStep = globalStep + 1;
    startNanos = System.nanoTime();
  }

  /** Redraws the line for {@code step} of {@code total}. */
  public void step(int step, int total, Map<String, Double> m, double accuracy) {
    if (!Double.isNaN(accuracy)) {
      lastAccuracy = accuracy;
      lastIsAccuracy = HeldOut.isAccuracy(m);
    }
    String line = line(step, total, m, elapsedSeconds());
    boolean milestone =
        step == total || step % Math.max(1, total / LOG_LINES) == 0 || !Double.isNaN(accuracy);
    if (!inPlace && !milestone) {
      return; // logs get ~LOG_LINES lines per run, plus every validation
    }
    if (inPlace) {
      out.print("\r" + line);
      if (step == total) {
        out.println();
      }
    } else {
      out.println(line);
    }
    out.flush();
  }

  /** Prints a message on its own line (keeping the bar intact on a terminal). */
  public void message(String text) {
    out.println((inPlace ? "\r" : "") + text);
    out.flush();
  }

  String line(int step, int total, Map<String, Double> m, double elapsed) {
    int filled = total == 0 ? BAR : (int) ((long) BAR * step / total);
    double perStep = elapsed / Math.max(1, step - firstStep + 1);
    double eta = perStep * (total - step);
    boolean sft = m.containsKey(MetricNames.SFT_LOSS);
    return String.format(
        Locale.ROOT,
        "[%s%s] step %d/%d | %s %.3f | %s %s | %.0f tok/s | %.2f s/step | ETA %s",
        "#".repeat(filled),
        ".".repeat(BAR - filled),
        step,
        total,
        sft ? "loss" : "reward",
        m.getOrDefault(sft ? MetricNames.SFT_LOSS : MetricNames.SCORE_MEAN, Double.NaN),
        Double.isNaN(lastAccuracy) ? "val" : lastIsAccuracy ? "acc" : "val reward",
        Double.isNaN(lastAccuracy) ? "-" : HeldOut.format(lastAccuracy, lastIsAccuracy),
        m.getOrDefault(MetricNames.THROUGHPUT, 0.0),
        m.getOrDefault(MetricNames.STEP_SECONDS, 0.0),
        duration(eta));
  }

  private double elapsedSeconds() {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  /** {@code 1h02m}, {@code 3m12s} or {@code 45s}. */
  public static String duration(double seconds) {
    long s = Math.round(Math.max(0, seconds));
    if (s >= 3600) {
      return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
    }
    return s >= 60 ? String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60) : s + "s";
  }
}
