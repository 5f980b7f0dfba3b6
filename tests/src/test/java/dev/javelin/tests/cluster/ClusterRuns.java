package dev.javelin.tests.cluster;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.tests.LeadingDigitReward;
import dev.javelin.tests.TinyRuns;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the cluster ITs share: the head node the tests pom started ({@code javelin.ray.address},
 * {@code javelin.ray.dashboard}, {@code javelin.ray.venv}), recipe overrides for short runs,
 * metrics reading and the dashboard's state API (actor PIDs).
 */
final class ClusterRuns {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ClusterRuns() {}

  /** The head's GCS address; fails when the tests pom did not start one. */
  static String address() {
    return required("javelin.ray.address");
  }

  /** The head's dashboard URL. */
  static String dashboard() {
    return required("javelin.ray.dashboard");
  }

  /** The Python Ray environment of the head (its {@code bin/ray} and {@code ray_dist.jar}). */
  static Path rayVenv() {
    return Path.of(required("javelin.ray.venv"));
  }

  private static String required(String key) {
    String v = System.getProperty(key);
    if (v == null || v.isBlank()) {
      fail(
          "system property "
              + key
              + " is not set: run cluster ITs through the tests pom (mvn verify -pl tests), which"
              + " starts a head with tools/setup/ray-cluster.sh");
    }
    return v;
  }

  /**
   * Overrides for a short arith-grpo run on this cluster ({@link #shape} plus {@code trainer.ray}
   * and {@code trainer.ray_address}).
   */
  static List<String> run(
      Path dir, int steps, int hidden, int layers, int maxResponse, String... extra) {
    List<String> o =
        new ArrayList<>(List.of("trainer.ray=cluster", "trainer.ray_address=" + address()));
    o.addAll(shape(dir, steps, hidden, layers, maxResponse, extra));
    return o;
  }

  /**
   * Overrides for a short arith-grpo run: a random-init model of {@code hidden} width and {@code
   * layers} layers, 1-digit sums, responses of up to {@code maxResponse} tokens, two samplers, the
   * dense {@link LeadingDigitReward}.
   */
  static List<String> shape(
      Path dir, int steps, int hidden, int layers, int maxResponse, String... extra) {
    List<String> more = new ArrayList<>(List.of("trainer.samplers=2"));
    more.addAll(List.of(extra));
    return TinyRuns.shape(
        dir, steps, hidden, layers, maxResponse, 8 + maxResponse, more.toArray(String[]::new));
  }

  /** {@code key} per step from a run's metrics.jsonl (steps without it are absent). */
  static Map<Integer, Double> series(Path dir, String key) throws IOException {
    Map<Integer, Double> out = new TreeMap<>();
    for (String line : Files.readAllLines(dir.resolve("metrics.jsonl"))) {
      JsonNode n = JSON.readTree(line);
      if (n.has(key) && n.has("step")) {
        out.put(n.get("step").asInt(), n.get(key).asDouble());
      }
    }
    return out;
  }

  /** An actor as the dashboard's state API lists it. */
  record Actor(String className, String state, long pid, String jobId, String placementGroup) {}

  /** Every actor of class {@code className} the cluster knows (alive or dead). */
  static List<Actor> actors(String className) throws IOException, InterruptedException {
    HttpRequest req =
        HttpRequest.newBuilder(URI.create(dashboard() + "/api/v0/actors?limit=1000&detail=true"))
            .timeout(Duration.ofSeconds(20))
            .build();
    HttpResponse<String> resp =
        HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString());
    if (resp.statusCode() != 200) {
      fail("dashboard state API answered " + resp.statusCode() + ": " + resp.body());
    }
    List<Actor> out = new ArrayList<>();
    for (JsonNode a : JSON.readTree(resp.body()).path("data").path("result").path("result")) {
      if (className.equals(a.path("class_name").asText())) {
        out.add(
            new Actor(
                className,
                a.path("state").asText(),
                a.path("pid").asLong(-1),
                a.path("job_id").asText(),
                a.path("placement_group_id").asText()));
      }
    }
    return out;
  }

  /** CPU time (user + system clock ticks) a process has used, from /proc; -1 once it is gone. */
  static long cpuTicks(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ", -1);
      return Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14, 15)
    } catch (IOException e) {
      return -1;
    }
  }
}
