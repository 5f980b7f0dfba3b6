package dev.javelin.recipes.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code trainer.logger=[mlflow]}: MLflow's REST API at {@code MLFLOW_TRACKING_URI}. Experiment =
 * {@code trainer.project_name} (created when missing), run name = {@code trainer.experiment_name},
 * params = the resolved recipe, metrics per step through {@code runs/log-batch}, the latest
 * checkpoint as tag {@code javelin.checkpoint}, report.html as an artifact when the server serves
 * artifacts ({@code mlflow server --serve-artifacts}, the default since MLflow 2).
 */
public final class MlflowLogger implements MetricsLogger {
  /** MLflow's per-request limits for {@code log-batch}. */
  static final int MAX_METRICS = 1000;

  static final int MAX_PARAMS = 100;
  static final int MAX_PARAM_VALUE = 500;
  static final int MAX_KEY = 250;
  private static final ObjectMapper JSON = new ObjectMapper();
  private final MlflowHttp http;
  private final String runId;
  private final String artifactUri;

  /** A logger for the run that {@code runs/create} answered with {@code info}. */
  private MlflowLogger(MlflowHttp http, JsonNode info) {
    this.http = http;
    this.runId = info.path("run_id").asText();
    this.artifactUri = info.path("artifact_uri").asText("");
  }

  /** Creates (or finds) the experiment, creates the run and logs the params. */
  public static MlflowLogger start(MetricsLoggers.Run run, PrintStream out) throws IOException {
    String uri = run.env().get("MLFLOW_TRACKING_URI");
    if (uri == null || !uri.startsWith("http")) {
      throw new IOException(
          "set MLFLOW_TRACKING_URI to the server, e.g. http://127.0.0.1:5000 (file stores are not"
              + " supported)");
    }
    MlflowHttp http = new MlflowHttp(uri);
    String experiment = experimentId(http, run.project());
    ObjectNode create = JSON.createObjectNode();
    create.put("experiment_id", experiment);
    create.put("run_name", run.experiment());
    create.put("start_time", System.currentTimeMillis());
    MlflowLogger logger =
        new MlflowLogger(http, http.post("runs/create", create).path("run").path("info"));
    logger.logParams(run.params());
    out.println("mlflow: run " + logger.runId + " in experiment '" + run.project() + "' at " + uri);
    return logger;
  }

  private static String experimentId(MlflowHttp http, String name) throws IOException {
    JsonNode found = http.getOrNull("experiments/get-by-name", "experiment_name", name);
    if (found != null) {
      return found.path("experiment").path("experiment_id").asText();
    }
    ObjectNode body = JSON.createObjectNode();
    body.put("name", name);
    return http.post("experiments/create", body).path("experiment_id").asText();
  }

  @Override
  public String name() {
    return "mlflow";
  }

  void logParams(Map<String, String> params) throws IOException {
    List<Map.Entry<String, String>> all = new ArrayList<>(params.entrySet());
    for (int i = 0; i < all.size(); i += MAX_PARAMS) {
      ObjectNode body = batch();
      ArrayNode ps = body.putArray("params");
      for (var p : all.subList(i, Math.min(all.size(), i + MAX_PARAMS))) {
        ObjectNode n = ps.addObject();
        n.put("key", truncate(sanitize(p.getKey()), MAX_KEY));
        n.put("value", truncate(p.getValue(), MAX_PARAM_VALUE));
      }
      http.post("runs/log-batch", body);
    }
  }

  @Override
  public void log(long step, Map<String, Double> metrics) throws IOException {
    long now = System.currentTimeMillis();
    List<Map.Entry<String, Double>> finite = new ArrayList<>();
    metrics.entrySet().stream()
        .filter(e -> e.getValue() != null && Double.isFinite(e.getValue()))
        .forEach(finite::add);
    for (int i = 0; i < finite.size(); i += MAX_METRICS) {
      ObjectNode body = batch();
      ArrayNode ms = body.putArray("metrics");
      for (var m : finite.subList(i, Math.min(finite.size(), i + MAX_METRICS))) {
        ObjectNode n = ms.addObject();
        n.put("key", metricKey(m.getKey()));
        n.put("value", m.getValue());
        n.put("timestamp", now);
        n.put("step", step);
      }
      http.post("runs/log-batch", body);
    }
  }

  @Override
  public void reconnect() throws IOException {
    http.get("runs/get", "run_id", runId); // the run still exists: the server is back
  }

  @Override
  public void finish(boolean failed, Path runDir) throws IOException {
    Path checkpoint = latestCheckpoint(runDir);
    if (checkpoint != null) {
      ObjectNode tag = JSON.createObjectNode();
      tag.put("run_id", runId);
      tag.put("key", "javelin.checkpoint");
      tag.put("value", checkpoint.toAbsolutePath().toString());
      http.post("runs/set-tag", tag);
    }
    Path report = runDir.resolve("report.html");
    String prefix = "mlflow-artifacts:/";
    if (Files.isRegularFile(report) && artifactUri.startsWith(prefix)) {
      http.putArtifact(artifactUri.substring(prefix.length()) + "/report.html", report);
    }
    ObjectNode end = JSON.createObjectNode();
    end.put("run_id", runId);
    end.put("status", failed ? "FAILED" : "FINISHED");
    end.put("end_time", System.currentTimeMillis());
    http.post("runs/update", end);
  }

  /** The newest {@code global_step_N} directory of the run, or null. */
  static Path latestCheckpoint(Path runDir) throws IOException {
    if (!Files.isDirectory(runDir)) {
      return null;
    }
    try (var s = Files.list(runDir)) {
      return s.filter(p -> p.getFileName().toString().matches("global_step_\\d+"))
          .max(
              (a, b) ->
                  Long.compare(
                      Long.parseLong(a.getFileName().toString().substring(12)),
                      Long.parseLong(b.getFileName().toString().substring(12))))
          .orElse(null);
    }
  }

  /** MLflow keys allow letters, digits, {@code _ - . / space}; anything else becomes {@code _}. */
  static String sanitize(String key) {
    return key.replaceAll("[^A-Za-z0-9_\\-./ ]", "_");
  }

  private static String metricKey(String key) {
    return truncate(sanitize(key), MAX_KEY);
  }

  private static String truncate(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max);
  }

  private ObjectNode batch() {
    ObjectNode body = JSON.createObjectNode();
    body.put("run_id", runId);
    return body;
  }
}
