package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A real {@code mlflow server} from .venv on a free loopback port with a temporary sqlite store and
 * artifact root; {@link #close} kills its whole process tree (the server forks workers).
 */
final class MlflowServer implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Process process;
  private final String uri;
  private final HttpClient http = HttpClient.newHttpClient();

  MlflowServer(Path root, Path tmp) throws IOException, InterruptedException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    uri = "http://127.0.0.1:" + port;
    process =
        new ProcessBuilder(
                root.resolve(".venv/bin/mlflow").toString(),
                "server",
                "--host",
                "127.0.0.1",
                "--port",
                String.valueOf(port),
                "--workers",
                "1",
                "--backend-store-uri",
                "sqlite:///" + tmp.resolve("mlflow.db").toAbsolutePath(),
                "--artifacts-destination",
                tmp.resolve("artifacts").toAbsolutePath().toString())
            .redirectErrorStream(true)
            .redirectOutput(tmp.resolve("mlflow-server.log").toFile())
            .start();
    try {
      awaitHealthy(tmp.resolve("mlflow-server.log"));
    } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
      close();
      throw e;
    }
  }

  String uri() {
    return uri;
  }

  private void awaitHealthy(Path log) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        fail("mlflow server exited: " + java.nio.file.Files.readString(log));
      }
      try {
        HttpResponse<String> r =
            http.send(
                HttpRequest.newBuilder(URI.create(uri + "/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(250);
    }
    fail("mlflow server not healthy in 120 s: " + java.nio.file.Files.readString(log));
  }

  JsonNode get(String method, String... params) throws IOException, InterruptedException {
    StringBuilder q = new StringBuilder(uri + "/api/2.0/mlflow/" + method + "?");
    for (int i = 0; i < params.length; i += 2) {
      q.append(i == 0 ? "" : "&").append(params[i]).append('=');
      q.append(URLEncoder.encode(params[i + 1], StandardCharsets.UTF_8));
    }
    return send(HttpRequest.newBuilder(URI.create(q.toString())).GET());
  }

  JsonNode post(String method, String body) throws IOException, InterruptedException {
    return send(
        HttpRequest.newBuilder(URI.create(uri + "/api/2.0/mlflow/" + method))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  private JsonNode send(HttpRequest.Builder r) throws IOException, InterruptedException {
    HttpResponse<String> a = http.send(r.build(), HttpResponse.BodyHandlers.ofString());
    if (a.statusCode() != 200) {
      fail("mlflow answered " + a.statusCode() + ": " + a.body());
    }
    return JSON.readTree(a.body());
  }

  @Override
  public void close() {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }
}
