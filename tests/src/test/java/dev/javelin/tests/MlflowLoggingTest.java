package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.recipes.cli.Commands;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 3-step run with {@code trainer.logger=['console','mlflow']} against a real MLflow server: the
 * run is FINISHED, has the recipe as params, the checkpoint tag, report.html as an artifact, and
 * every metric of metrics.jsonl at its step.
 */
class MlflowLoggingTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void everyMetricParamTagAndTheReportArrive(@TempDir Path tmp) throws Exception {
    Path dir = tmp.resolve("run");
    try (MlflowServer server = new MlflowServer(ObservabilityTest.ROOT, tmp)) {
      new Commands(
              new PrintStream(OutputStream.nullOutputStream()),
              Map.of("MLFLOW_TRACKING_URI", server.uri()))
          .run(
              "recipes/arith-grpo.yaml",
              TinyRuns.tiny(
                  dir,
                  3,
                  "trainer.ray=off",
                  "trainer.logger=['console','mlflow']",
                  "trainer.project_name=obs-test",
                  "trainer.experiment_name=tiny"));
      String exp =
          server
              .get("experiments/get-by-name", "experiment_name", "obs-test")
              .path("experiment")
              .path("experiment_id")
              .asText();
      JsonNode run =
          server.post("runs/search", "{\"experiment_ids\":[\"" + exp + "\"]}").path("runs").get(0);
      String runId = run.path("info").path("run_id").asText();
      assertEquals("FINISHED", run.path("info").path("status").asText());
      assertEquals("tiny", run.path("info").path("run_name").asText());
      Map<String, String> params = new HashMap<>();
      run.path("data")
          .path("params")
          .forEach(p -> params.put(p.path("key").asText(), p.path("value").asText()));
      assertEquals("8", params.get("data.train_batch_size"));
      Map<String, String> tags = new HashMap<>();
      run.path("data")
          .path("tags")
          .forEach(t -> tags.put(t.path("key").asText(), t.path("value").asText()));
      assertEquals(
          dir.resolve("global_step_3").toAbsolutePath().toString(), tags.get("javelin.checkpoint"));
      JsonNode files = server.get("artifacts/list", "run_id", runId).path("files");
      assertTrue(files.toString().contains("report.html"), files.toString());

      Map<String, Map<Long, Double>> want = new TreeMap<>();
      for (String line : Files.readAllLines(dir.resolve("metrics.jsonl"))) {
        JsonNode rec = JSON.readTree(line);
        long step = rec.path("step").asLong();
        rec.properties()
            .forEach(
                f -> {
                  if (!f.getKey().equals("step") && f.getValue().isNumber()) {
                    want.computeIfAbsent(
                            f.getKey().replaceAll("[^A-Za-z0-9_\\-./ ]", "_"), k -> new TreeMap<>())
                        .put(step, f.getValue().asDouble());
                  }
                });
      }
      assertTrue(want.size() > 20, "metrics: " + want.keySet());
      for (var m : want.entrySet()) {
        Map<Long, Double> got = new TreeMap<>();
        server
            .get("metrics/get-history", "run_id", runId, "metric_key", m.getKey())
            .path("metrics")
            .forEach(p -> got.put(p.path("step").asLong(), p.path("value").asDouble()));
        assertEquals(m.getValue().keySet(), got.keySet(), m.getKey());
        for (var s : m.getValue().entrySet()) {
          double g = got.get(s.getKey());
          assertEquals(
              s.getValue(),
              g,
              1e-5 * Math.max(1, Math.abs(g)),
              m.getKey() + " at step " + s.getKey());
        }
      }
    }
  }
}
