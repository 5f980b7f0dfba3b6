package dev.javelin.recipes.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The MLflow REST calls the logger makes, answered in memory; can go down and come back. */
final class FakeMlflow implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  final List<JsonNode> metrics = new ArrayList<>();
  final Map<String, String> params = new ConcurrentHashMap<>();
  final Map<String, String> tags = new ConcurrentHashMap<>();
  final Map<String, byte[]> artifacts = new ConcurrentHashMap<>();
  volatile String status = "RUNNING";
  private final int port;
  private HttpServer server;

  FakeMlflow() throws IOException {
    server = start(0);
    port = server.getAddress().getPort();
  }

  String uri() {
    return "http://127.0.0.1:" + port;
  }

  void stop() {
    server.stop(0);
  }

  void restart() throws IOException {
    server = start(port);
  }

  private HttpServer start(int p) throws IOException {
    HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), p), 0);
    s.createContext("/", this::handle);
    s.start();
    return s;
  }

  private synchronized void handle(HttpExchange ex) throws IOException {
    String path = ex.getRequestURI().getPath();
    byte[] in = ex.getRequestBody().readAllBytes();
    String answer = "{}";
    int code = 200;
    if (path.startsWith("/api/2.0/mlflow-artifacts/artifacts/")) {
      artifacts.put(path.substring("/api/2.0/mlflow-artifacts/artifacts/".length()), in);
    } else {
      String method = path.substring("/api/2.0/mlflow/".length());
      JsonNode body = in.length == 0 ? null : JSON.readTree(in);
      switch (method) {
        case "experiments/get-by-name" -> {
          code = 404;
          answer = "{\"error_code\":\"RESOURCE_DOES_NOT_EXIST\"}";
        }
        case "experiments/create" -> answer = "{\"experiment_id\":\"7\"}";
        case "runs/create" ->
            answer =
                "{\"run\":{\"info\":{\"run_id\":\"r1\",\"artifact_uri\":"
                    + "\"mlflow-artifacts:/7/r1/artifacts\"}}}";
        case "runs/log-batch" -> {
          body.path("metrics").forEach(metrics::add);
          body.path("params")
              .forEach(p -> params.put(p.path("key").asText(), p.path("value").asText()));
        }
        case "runs/set-tag" -> tags.put(body.path("key").asText(), body.path("value").asText());
        case "runs/update" -> status = body.path("status").asText();
        case "runs/get" -> answer = "{\"run\":{}}";
        default -> code = 404;
      }
    }
    byte[] out = answer.getBytes(StandardCharsets.UTF_8);
    ex.sendResponseHeaders(code, out.length);
    ex.getResponseBody().write(out);
    ex.close();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
