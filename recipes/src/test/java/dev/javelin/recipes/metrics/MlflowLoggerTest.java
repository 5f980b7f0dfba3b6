package dev.javelin.recipes.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MlflowLoggerTest {
  private final ByteArrayOutputStream console = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8);

  private static MetricsLoggers.Run run(Path dir, String uri) {
    return new MetricsLoggers.Run(
        dir,
        "proj",
        "exp",
        Map.of("data.train_batch_size", "8", "long", "x".repeat(9000)),
        Map.of("MLFLOW_TRACKING_URI", uri));
  }

  @Test
  void logsParamsMetricsTagArtifactAndStatus(@TempDir Path dir) throws Exception {
    Files.createDirectories(dir.resolve("global_step_2"));
    Files.createDirectories(dir.resolve("global_step_10"));
    Files.writeString(dir.resolve("report.html"), "<html></html>");
    try (FakeMlflow server = new FakeMlflow()) {
      MetricsLoggers loggers = MetricsLoggers.open(List.of("mlflow"), run(dir, server.uri()), out);
      loggers.log(1, Map.of("val/acc/mean@1", 0.25, "critic/score/mean", 0.5, "x", Double.NaN));
      loggers.log(2, Map.of("critic/score/mean", 0.75));
      loggers.finish(false);
      assertEquals("8", server.params.get("data.train_batch_size"));
      assertEquals(MlflowLogger.MAX_PARAM_VALUE, server.params.get("long").length());
      TreeSet<String> keys = new TreeSet<>();
      server.metrics.forEach(m -> keys.add(m.path("key").asText() + "@" + m.path("step").asLong()));
      assertEquals(
          new TreeSet<>(List.of("critic/score/mean@1", "critic/score/mean@2", "val/acc/mean_1@1")),
          keys);
      assertEquals(
          dir.resolve("global_step_10").toAbsolutePath().toString(),
          server.tags.get("javelin.checkpoint"));
      assertEquals(
          "<html></html>",
          new String(server.artifacts.get("7/r1/artifacts/report.html"), StandardCharsets.UTF_8));
      assertEquals("FINISHED", server.status);
    }
  }

  @Test
  void serverThatGoesAwayNeverStopsTrainingAndIsRejoined(@TempDir Path dir) throws Exception {
    long[] now = {0};
    try (FakeMlflow server = new FakeMlflow()) {
      MlflowLogger backend = MlflowLogger.start(run(dir, server.uri()), out);
      GuardedLogger guarded = new GuardedLogger(backend, () -> now[0]);
      guarded.log(1, Map.of("m", 1.0));
      server.stop();
      guarded.log(2, Map.of("m", 2.0)); // fails: counted, not thrown
      now[0] += GuardedLogger.FIRST_BACKOFF_NANOS / 2;
      guarded.log(3, Map.of("m", 3.0)); // still backing off: not even tried
      assertEquals(1, guarded.errors());
      now[0] += GuardedLogger.FIRST_BACKOFF_NANOS;
      guarded.log(4, Map.of("m", 4.0)); // tried again, still down: backoff doubles
      assertEquals(2, guarded.errors());
      server.restart();
      now[0] += GuardedLogger.FIRST_BACKOFF_NANOS;
      guarded.log(5, Map.of("m", 5.0)); // within the doubled backoff
      now[0] += GuardedLogger.FIRST_BACKOFF_NANOS;
      guarded.log(6, Map.of("m", 6.0)); // reconnects
      guarded.finish(true, dir);
      TreeSet<Long> steps = new TreeSet<>();
      server.metrics.forEach(m -> steps.add(m.path("step").asLong()));
      assertEquals(new TreeSet<>(List.of(1L, 6L)), steps);
      assertEquals(2, guarded.errors());
      assertEquals("FAILED", server.status);
    }
  }

  @Test
  void unreachableServerAtStartIsReportedAndSkipped(@TempDir Path dir) {
    MetricsLoggers loggers =
        MetricsLoggers.open(List.of("mlflow", "wandb"), run(dir, "http://127.0.0.1:9"), out);
    loggers.log(1, Map.of("m", 1.0));
    loggers.finish(false);
    String text = console.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("trainer.logger: mlflow could not start"), text);
    assertTrue(text.contains("wandb is not available"), text);
  }

  @Test
  void keysAreSanitised() {
    assertEquals("val-core/arith/acc/mean_1", MlflowLogger.sanitize("val-core/arith/acc/mean@1"));
  }
}
