package dev.javelin.recipes.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/** The few MLflow REST calls, JSON in and out; any non-2xx answer is an {@link IOException}. */
final class MlflowHttp {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final ObjectMapper JSON = BoundedMapper.of(32, 16 << 20);
  private final String base;
  private final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

  MlflowHttp(String trackingUri) {
    this.base =
        trackingUri.endsWith("/")
            ? trackingUri.substring(0, trackingUri.length() - 1)
            : trackingUri;
  }

  JsonNode post(String method, JsonNode body) throws IOException {
    return send(
        HttpRequest.newBuilder(api(method))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body.toString())),
        method,
        false);
  }

  JsonNode get(String method, String param, String value) throws IOException {
    return send(HttpRequest.newBuilder(query(method, param, value)).GET(), method, false);
  }

  /** GET that answers null on 404 (e.g. an experiment that does not exist yet). */
  JsonNode getOrNull(String method, String param, String value) throws IOException {
    return send(HttpRequest.newBuilder(query(method, param, value)).GET(), method, true);
  }

  /** Uploads a file through the server's artifact proxy. */
  void putArtifact(String path, Path file) throws IOException {
    URI uri = URI.create(base + "/api/2.0/mlflow-artifacts/artifacts/" + path);
    send(HttpRequest.newBuilder(uri).PUT(HttpRequest.BodyPublishers.ofFile(file)), path, false);
  }

  private URI api(String method) {
    return URI.create(base + "/api/2.0/mlflow/" + method);
  }

  private URI query(String method, String param, String value) {
    return URI.create(
        base
            + "/api/2.0/mlflow/"
            + method
            + "?"
            + param
            + "="
            + URLEncoder.encode(value, StandardCharsets.UTF_8));
  }

  private JsonNode send(HttpRequest.Builder request, String what, boolean nullOn404)
      throws IOException {
    HttpResponse<String> r;
    try {
      r = client.send(request.timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted calling mlflow " + what, e);
    }
    if (nullOn404 && r.statusCode() == 404) {
      return null;
    }
    if (r.statusCode() / 100 != 2) {
      String body = r.body();
      throw new IOException(
          "mlflow "
              + what
              + ": HTTP "
              + r.statusCode()
              + " "
              + body.substring(0, Math.min(200, body.length())));
    }
    return r.body().isBlank() ? JSON.createObjectNode() : JSON.readTree(r.body());
  }
}
