package dev.javelin.recipes.report;

import dev.javelin.grpo.MetricNames;
import dev.javelin.recipes.config.ModelSection;
import dev.javelin.recipes.metrics.ConsoleProgress;
import dev.javelin.recipes.metrics.HeldOut;
import java.util.Map;

/**
 * The table a report opens with: the model, the time the steps took, the held-out headline at the
 * first and last validation (in the console's units: an accuracy in percent) and the reward calls
 * that failed or timed out.
 */
final class ReportSummary {
  private static final String REWARD_ERRORS = "reward/errors";
  private static final String REWARD_TIMEOUTS = "reward/timeouts";

  private ReportSummary() {}

  static void append(StringBuilder sb, MetricsHistory h, Map<String, String> recipe) {
    sb.append("<table class=\"summary\">");
    String model = recipe.get(ModelSection.PATH.name());
    row(sb, "model", model == null || model.isBlank() ? "random init (init.*)" : model);
    if (h.steps().isEmpty()) {
      row(sb, "steps", "none logged yet (metrics.jsonl is empty or missing)");
      sb.append("</table>");
      return;
    }
    row(sb, "steps", h.steps().firstKey() + "&ndash;" + h.steps().lastKey());
    double seconds = sum(h, MetricNames.STEP_SECONDS);
    row(sb, "wall time of the steps", seconds > 0 ? ConsoleProgress.duration(seconds) : "n/a");
    headline(sb, h);
    double errors = sum(h, REWARD_ERRORS);
    double timeouts = sum(h, REWARD_TIMEOUTS);
    row(
        sb,
        "reward errors",
        h.names().contains(REWARD_ERRORS)
            ? String.format(java.util.Locale.ROOT, "%.0f failed, %.0f timed out", errors, timeouts)
            : "not logged");
    sb.append("</table>");
  }

  /** The held-out headline at the first and the last validation, as the console prints it. */
  private static void headline(StringBuilder sb, MetricsHistory h) {
    Map<String, Double> first = null;
    Map<String, Double> last = null;
    long firstStep = 0;
    long lastStep = 0;
    for (var e : h.steps().entrySet()) {
      if (!Double.isNaN(HeldOut.value(e.getValue()))) {
        if (first == null) {
          first = e.getValue();
          firstStep = e.getKey();
        }
        last = e.getValue();
        lastStep = e.getKey();
      }
    }
    if (first == null) {
      row(sb, "held-out", "no validation logged");
      return;
    }
    boolean acc = HeldOut.isAccuracy(first);
    double from = HeldOut.value(first);
    double to = HeldOut.value(last);
    row(
        sb,
        HeldOut.label(acc),
        HeldOut.format(from, acc)
            + " at step "
            + firstStep
            + " &rarr; "
            + HeldOut.format(to, acc)
            + " at step "
            + lastStep
            + " ("
            + HeldOut.delta(from, to, acc)
            + ")");
  }

  private static double sum(MetricsHistory h, String name) {
    return h.series(name).values().stream().mapToDouble(Double::doubleValue).sum();
  }

  private static void row(StringBuilder sb, String key, String value) {
    sb.append("<tr><th>").append(Html.escape(key)).append("</th><td>").append(value);
    sb.append("</td></tr>");
  }
}
