package dev.javelin.recipes.report;

import dev.javelin.grpo.MetricNames;
import dev.javelin.recipes.config.TrainerSection;
import dev.javelin.recipes.metrics.HeldOut;
import dev.javelin.recipes.metrics.RunFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * {@code <run dir>/report.html}: one self-contained page (inline CSS and SVG, no script, no
 * network) with a chart per metric group the run logged, the resolved recipe and sample validation
 * generations. Built from metrics.jsonl as it is, so it works on a running run.
 */
public final class RunReport {
  /**
   * A chart: its title, the metric names it draws (regexes), whether series stack, and the factor
   * its values are drawn at (100 for an accuracy, in percent as the console prints it).
   */
  record Chart(String title, Pattern metrics, boolean stacked, double scale) {
    Chart(String title, String regex) {
      this(title, Pattern.compile(regex), false, 1);
    }

    Chart(String title, Pattern metrics, boolean stacked) {
      this(title, metrics, stacked, 1);
    }
  }

  static final List<Chart> CHARTS =
      List.of(
          new Chart("Training reward", "critic/score/(mean|max|min)"),
          new Chart("Held-out accuracy (%)", Pattern.compile(HeldOut.ACC_CHART), false, 100),
          // a reward that reports no acc is validated by its mean score (reward)
          new Chart("Held-out reward", HeldOut.REWARD_CHART),
          new Chart("Response length (tokens)", "response_length/(mean|max)"),
          new Chart("Response clip ratio", "response_length/clip_ratio"),
          new Chart("Entropy", MetricNames.ENTROPY),
          new Chart("KL", "actor/(kl_loss|ppo_kl)"),
          new Chart("Clip fractions", "actor/.*clipfrac.*"),
          new Chart("Grad norm", "(actor|sft)/grad_norm"),
          new Chart("Learning rate", "(actor|sft)/lr"),
          new Chart("SFT loss", MetricNames.SFT_LOSS),
          new Chart(
              "Step time by phase (s, stacked)",
              Pattern.compile("timing_s/(?!step$|testing$|save_checkpoint$).*"),
              true),
          new Chart("Tokens/s", "perf/throughput|sampler/tokens_per_s"),
          new Chart("Sampler restarts", "rollout/sampler_(restarts|rejected)"));

  private static final String CSS =
      "body{font:14px system-ui,sans-serif;margin:24px;color:#222;background:#fafafa}"
          + "h1{font-size:20px}h2{font-size:15px;margin:4px 0}"
          + ".charts{display:flex;flex-wrap:wrap;gap:16px}"
          + ".chart{background:#fff;border:1px solid #ddd;padding:8px;border-radius:4px}"
          + ".frame{fill:none;stroke:#999}.grid{stroke:#eee}"
          + ".yt{font-size:10px;text-anchor:end;fill:#555}.xt{font-size:10px;text-anchor:middle;"
          + "fill:#555}.lg{font-size:11px;fill:#333}"
          + "table{border-collapse:collapse;background:#fff;font-size:12px}"
          + "td,th{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}"
          + "pre{white-space:pre-wrap;margin:0;max-width:900px}"
          + ".summary{margin:8px 0 12px;font-size:13px}.summary th{background:#f3f3f3}";

  private RunReport() {}

  /** Writes {@code runDir/report.html} (atomically) and returns its path. */
  public static Path write(Path runDir) throws IOException {
    MetricsHistory history = MetricsHistory.read(runDir.resolve("metrics.jsonl"));
    Map<String, String> recipe = RecipeTable.read(runDir.resolve("recipe.yaml"));
    Path name = runDir.toAbsolutePath().getFileName();
    String title =
        recipe.containsKey(TrainerSection.EXPERIMENT_NAME.name())
            ? recipe.getOrDefault(TrainerSection.PROJECT_NAME.name(), "")
                + "/"
                + recipe.get(TrainerSection.EXPERIMENT_NAME.name())
            : name == null ? runDir.toString() : name.toString();
    String html =
        render(
            title,
            history,
            recipe,
            ValidationSamples.read(runDir.resolve("val_generations.jsonl")));
    Path out = runDir.resolve("report.html");
    RunFile.replace(out, html);
    return out;
  }

  static String render(
      String title,
      MetricsHistory history,
      Map<String, String> recipe,
      List<ValidationSamples.Sample> samples) {
    StringBuilder sb = new StringBuilder(64 << 10);
    sb.append("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>")
        .append(Html.escape("javelin report: " + title))
        .append("</title><style>")
        .append(CSS)
        .append("</style></head><body><h1>")
        .append(Html.escape("javelin report: " + title))
        .append("</h1>");
    ReportSummary.append(sb, history, recipe);
    sb.append("<p>").append(summary(history)).append("</p><div class=\"charts\">");
    for (Chart c : CHARTS) {
      Map<String, NavigableMap<Long, Double>> series = new LinkedHashMap<>();
      for (String name : history.names()) {
        if (c.metrics().matcher(name).matches()) {
          NavigableMap<Long, Double> s = history.series(name);
          if (!s.isEmpty()) {
            series.put(name, scaled(s, c.scale()));
          }
        }
      }
      if (!series.isEmpty()) {
        sb.append("<div class=\"chart\"><h2>").append(Html.escape(c.title())).append("</h2>");
        sb.append(SvgChart.render(series, c.stacked())).append("</div>");
      }
    }
    sb.append("</div>");
    ValidationSamples.appendTable(sb, samples);
    RecipeTable.append(sb, recipe);
    return sb.append("</body></html>\n").toString();
  }

  private static NavigableMap<Long, Double> scaled(NavigableMap<Long, Double> s, double scale) {
    if (scale == 1) {
      return s;
    }
    NavigableMap<Long, Double> out = new TreeMap<>();
    s.forEach((k, v) -> out.put(k, v * scale));
    return out;
  }

  private static String summary(MetricsHistory h) {
    if (h.steps().isEmpty()) {
      return "no steps logged yet (metrics.jsonl is empty or missing)";
    }
    return String.format(
        Locale.ROOT,
        "steps %d&ndash;%d, %d logged records, %d metrics",
        h.steps().firstKey(),
        h.steps().lastKey(),
        h.steps().size(),
        h.names().size());
  }
}
