package dev.javelin.recipes.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunReportTest {
  @Test
  void resumedRunGivesOneCurveLastRecordWins(@TempDir Path dir) throws Exception {
    Files.writeString(
        dir.resolve("metrics.jsonl"),
        """
        {"step":1,"critic/score/mean":0.1}
        {"step":2,"critic/score/mean":0.2}
        {"step":2,"critic/score/mean":0.3}
        {"step":3,"critic/score/mean":null,"actor/entropy":1.5}
        {"step":4,"critic/sc""");
    MetricsHistory h = MetricsHistory.read(dir.resolve("metrics.jsonl"));
    assertEquals(3, h.steps().size());
    assertEquals(0.3, h.series("critic/score/mean").get(2L));
    assertEquals(2, h.series("critic/score/mean").size());
  }

  @Test
  void writesChartsRecipeAndEscapedSamples(@TempDir Path dir) throws Exception {
    StringBuilder m = new StringBuilder();
    for (int s = 0; s <= 5; s++) {
      m.append("{\"step\":").append(s);
      if (s > 0) {
        m.append(",\"critic/score/mean\":").append(0.1 * s);
        m.append(",\"timing_s/gen\":0.5,\"timing_s/update_actor\":0.25,\"timing_s/step\":0.8");
      }
      m.append(",\"val-core/arith/acc/mean@1\":").append(0.2 + 0.01 * s).append("}\n");
    }
    Files.writeString(dir.resolve("metrics.jsonl"), m);
    Files.writeString(dir.resolve("recipe.yaml"), "trainer:\n  project_name: \"<b>p</b>\"\n");
    Files.writeString(
        dir.resolve("val_generations.jsonl"),
        "{\"step\":5,\"data_source\":\"arith\",\"prompt\":\"1+1\",\"response\":"
            + "\"<script>alert(1)</script>\",\"score\":1}\n");
    String html = Files.readString(RunReport.write(dir));
    assertFalse(html.contains("<script"), "model output must be escaped");
    assertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assertTrue(html.contains("&lt;b&gt;p&lt;/b&gt;"));
    assertFalse(html.contains("http://") && !html.contains("xmlns=\"http://www.w3.org/2000/svg\""));
    Matcher poly = Pattern.compile("<polyline [^>]*points=\"([^\"]*)\"").matcher(html);
    int charts = 0;
    while (poly.find()) {
      charts++;
      assertTrue(poly.group(1).trim().split(" ").length > 1, poly.group());
    }
    assertEquals(4, charts, "reward, accuracy and two stacked phases");
    assertTrue(html.contains("Step time by phase"));
    assertFalse(html.contains("Entropy"), "no chart without its metric");
  }

  @Test
  void opensWithASummaryAndDrawsAccuracyInPercent(@TempDir Path dir) throws Exception {
    StringBuilder m = new StringBuilder();
    for (int s = 0; s <= 4; s++) {
      m.append("{\"step\":").append(s);
      if (s > 0) {
        m.append(",\"timing_s/step\":30,\"reward/errors\":").append(s == 2 ? 3 : 0);
        m.append(",\"reward/timeouts\":0,\"actor/entropy\":0.0");
      }
      if (s % 2 == 0) {
        m.append(",\"val-core/arith/acc/mean@1\":").append(0.25 + 0.1 * s);
      }
      m.append("}\n");
    }
    Files.writeString(dir.resolve("metrics.jsonl"), m);
    Files.writeString(dir.resolve("recipe.yaml"), "actor_rollout_ref.model.path: /models/tiny\n");
    String html = Files.readString(RunReport.write(dir));
    int summary = html.indexOf("<table class=\"summary\">");
    assertTrue(summary > 0 && summary < html.indexOf("<svg"), "the summary comes first");
    assertTrue(html.contains("<th>model</th><td>/models/tiny</td>"), html);
    assertTrue(
        html.contains("<td>2m 0s</td>") || html.contains("2m00s") || html.contains("2m"), html);
    assertTrue(
        html.contains("25.0% at step 0 &rarr; 65.0% at step 4 (+40.0 points)"),
        "accuracy in the console's units: " + html);
    assertTrue(html.contains("3 failed, 0 timed out"), html);
    assertTrue(html.contains("Held-out accuracy (%)"));
    assertTrue(html.contains("class=\"yt\">65</text>"), "a 65% tick, not 0.65: " + html);
    assertFalse(html.contains("e-06"), "no ±1e-6 axis for the flat entropy");
    assertTrue(html.contains("class=\"yt\">1</text>"), "flat 0 drawn on a 0..1 axis");
  }
}
