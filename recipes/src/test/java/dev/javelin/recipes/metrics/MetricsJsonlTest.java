package dev.javelin.recipes.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetricsJsonlTest {
  @Test
  void writesOneObjectPerStepWithNullForNonFinite(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("run/metrics.jsonl");
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("actor/pg_loss", 0.25);
    m.put("timing_s/gen", 3.0);
    m.put("val-core/synthetic/arith/acc/mean@1", Double.NaN);
    try (MetricsJsonl out = new MetricsJsonl(file)) {
      out.write(1, m);
      out.write(2, Map.of("a\"b", 1e-7));
    }
    List<String> lines = Files.readAllLines(file);
    assertEquals(
        "{\"step\":1,\"actor/pg_loss\":0.250000,\"timing_s/gen\":3,"
            + "\"val-core/synthetic/arith/acc/mean@1\":null}",
        lines.get(0));
    assertTrue(lines.get(1).startsWith("{\"step\":2,\"a\\\"b\":1.00000e-07"), lines.get(1));
  }

  @Test
  void progressLineShowsRewardAccuracyAndEta() {
    ConsoleProgress p = new ConsoleProgress(System.out, false, 1);
    String line = p.line(5, 10, Map.of("critic/score/mean", 0.5, "perf/throughput", 1000.0), 50.0);
    assertTrue(line.contains("step 5/10"), line);
    assertTrue(line.contains("reward 0.500"), line);
    assertTrue(line.contains("ETA 50s"), line);
  }

  @Test
  void resumeDropsTheStepsAfterTheCheckpoint(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("metrics.jsonl");
    try (MetricsJsonl m = new MetricsJsonl(file)) {
      for (int step = 0; step <= 5; step++) {
        m.write(step, Map.of("a", (double) step));
      }
      m.resumeAt(3); // killed after step 5, resumed from the checkpoint of step 3
      m.write(4, Map.of("a", 40.0));
    }
    assertEquals(
        List.of(
            "{\"step\":0,\"a\":0}",
            "{\"step\":1,\"a\":1}",
            "{\"step\":2,\"a\":2}",
            "{\"step\":3,\"a\":3}",
            "{\"step\":4,\"a\":40}"),
        Files.readAllLines(file));
  }
}
