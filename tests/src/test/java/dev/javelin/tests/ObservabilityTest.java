package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.cli.Commands;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 4-step arith-grpo run with {@code trainer.logger=['console','tensorboard']}: TensorBoard's own
 * reader finds every metric.jsonl value, and report.html renders in headless Chromium with data in
 * every chart and no console messages.
 */
class ObservabilityTest {
  static final Path ROOT = Path.of(System.getProperty("javelin.root", "..")).toAbsolutePath();

  @Test
  void tensorboardEventsMatchMetricsAndReportRenders(@TempDir Path tmp) throws Exception {
    Path dir = tmp.resolve("run");
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    new Commands(new PrintStream(console, true, StandardCharsets.UTF_8), Map.of())
        .run(
            "recipes/arith-grpo.yaml",
            TinyRuns.tiny(
                dir,
                4,
                "trainer.ray=off",
                "trainer.test_freq=2",
                "trainer.logger=['console','tensorboard','wandb']"));
    String text = console.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("wandb is not available"), text);
    assertTrue(text.contains("tensorboard --logdir"), text);

    Process check =
        new ProcessBuilder(
                ROOT.resolve(".venv/bin/python").toString(),
                ROOT.resolve("tools/check_tfevents.py").toString(),
                dir.resolve("tensorboard").toString(),
                dir.resolve("metrics.jsonl").toString())
            .redirectErrorStream(true)
            .start();
    String checked = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(check.waitFor(120, TimeUnit.SECONDS));
    assertEquals(0, check.exitValue(), checked);

    Path report = dir.resolve("report.html");
    assertTrue(Files.isRegularFile(report), text);
    Headless.Result dom = Headless.run(report, "--dump-dom");
    assertFalse(dom.stderr().contains(":CONSOLE("), "console messages: " + dom.stderr());
    Matcher chart =
        Pattern.compile("<div class=\"chart\"><h2>([^<]*)</h2>(.*?)</svg>").matcher(dom.stdout());
    int charts = 0;
    while (chart.find()) {
      charts++;
      Matcher poly = Pattern.compile("points=\"([^\"]*)\"").matcher(chart.group(2));
      assertTrue(poly.find(), chart.group(1) + " has no polyline");
      do {
        assertTrue(
            poly.group(1).trim().split("\\s+").length > 1, chart.group(1) + ": " + poly.group());
      } while (poly.find());
    }
    for (String title :
        new String[] {
          "Training reward",
          "Held-out reward", // this run's reward reports no acc, so its held-out value is a score
          "Response length",
          "Step time by phase",
          "Tokens/s"
        }) {
      assertTrue(dom.stdout().contains(title), title + " chart missing");
    }
    assertTrue(charts >= 8, "charts: " + charts);
    assertTrue(dom.stdout().contains("Validation generations at step 4"));
    Path png = tmp.resolve("report.png");
    Headless.run(report, "--screenshot=" + png, "--window-size=1280,1600", "--hide-scrollbars");
    assertTrue(Files.size(png) > 10_000, "screenshot " + Files.size(png) + " bytes");
    String keep = System.getProperty("javelin.report.png");
    if (keep != null) {
      Files.copy(png, Path.of(keep), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
