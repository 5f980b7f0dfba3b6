package dev.javelin.recipes.jobs;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A stand-in for the Ray dashboard's Jobs API on a free loopback port: each {@code "METHOD path"}
 * answers what the test scripted (a fixed answer or a function of the call count); every request is
 * recorded with its body.
 */
final class FakeDashboard implements AutoCloseable {
  /** A scripted answer. */
  record Answer(int status, String body, long delayMillis) {
    static Answer json(String body) {
      return new Answer(200, body, 0);
    }

    static Answer error(int status, String body) {
      return new Answer(status, body, 0);
    }
  }

  /** A request as received. */
  record Request(String method, String path, byte[] body) {
    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  /** Answers by call number (0-based) for one route. */
  @FunctionalInterface
  interface Script {
    Answer answer(int call);
  }

  private final HttpServer server;
  private final Map<String, Script> routes = new ConcurrentHashMap<>();
  private final Map<String, Integer> calls = new ConcurrentHashMap<>();
  final List<Request> requests = new CopyOnWriteArrayList<>();

  FakeDashboard() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  FakeDashboard on(String methodAndPath, Answer answer) {
    routes.put(methodAndPath, call -> answer);
    return this;
  }

  FakeDashboard on(String methodAndPath, Script script) {
    routes.put(methodAndPath, script);
    return this;
  }

  List<Request> requests(String method, String path) {
    return requests.stream().filter(r -> r.method.equals(method) && r.path.equals(path)).toList();
  }

  private void handle(HttpExchange ex) throws IOException {
    String key = ex.getRequestMethod() + " " + ex.getRequestURI().getPath();
    byte[] body = ex.getRequestBody().readAllBytes();
    requests.add(new Request(ex.getRequestMethod(), ex.getRequestURI().getPath(), body));
    Script script = routes.get(key);
    Answer a =
        script == null
            ? Answer.error(404, "no route " + key)
            : script.answer(calls.merge(key, 1, Integer::sum) - 1);
    if (a.delayMillis() > 0) {
      try {
        Thread.sleep(a.delayMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    byte[] out = a.body().getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().add("Content-Type", "application/json");
    ex.sendResponseHeaders(a.status(), out.length == 0 ? -1 : out.length);
    try (OutputStream o = ex.getResponseBody()) {
      o.write(out);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
