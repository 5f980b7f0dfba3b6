package dev.javelin.tests.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.recipes.ray.CodeSearchPath;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./javelin run ... --ray-address} is killed with SIGKILL after a checkpoint (or its trainer
 * actor's worker is, which stops the run with a clear error); rerunning the same command resumes
 * from the last checkpoint and ends with every step once and no prompt seen twice in an epoch.
 */
class DriverKillClusterIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int STEPS = 8; // one epoch holds 90 / 8 = 11 batches

  @Test
  void rerunResumesFromTheLastCheckpoint(@TempDir Path dir) throws Exception {
    Path root = Path.of(System.getProperty("javelin.root"));
    List<String> command = command(root, dir);

    Process first = start(command, root, dir.resolve("run1.log"));
    awaitCheckpoint(dir, 2, first);
    first.destroyForcibly(); // SIGKILL: no shutdown hook, no final checkpoint
    assertTrue(first.waitFor(30, TimeUnit.SECONDS));
    assertEquals(137, first.exitValue(), "killed by SIGKILL");
    int killedAt = lastCheckpoint(dir);
    assertTrue(killedAt < STEPS, "the first run finished before the kill; make steps longer");
    rerunToTheEnd(command, root, dir, killedAt);
  }

  @Test
  void aDeadTrainerStopsTheRunAndARerunResumes(@TempDir Path dir) throws Exception {
    Path root = Path.of(System.getProperty("javelin.root"));
    List<String> command = command(root, dir);
    Process first = start(command, root, dir.resolve("run1.log"));
    awaitCheckpoint(dir, 2, first);
    long pid = alivePid("dev.javelin.trainer.TrainerActor");
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly); // SIGKILL the trainer's JVM
    assertTrue(first.waitFor(120, TimeUnit.SECONDS), "the driver hung after its trainer died");
    String log1 = Files.readString(dir.resolve("run1.log"), StandardCharsets.UTF_8);
    assertEquals(1, first.exitValue(), log1);
    assertTrue(log1.contains("trainer actor's worker process died"), log1);
    int killedAt = lastCheckpoint(dir);
    assertTrue(killedAt < STEPS, "the first run finished before the kill; make steps longer");
    rerunToTheEnd(command, root, dir, killedAt);
  }

  /**
   * Reruns the same command: it resumes after step {@code killedAt} (keeping the steps before it as
   * they were) and ends with every step once and no prompt twice in an epoch.
   */
  private static void rerunToTheEnd(List<String> command, Path root, Path dir, int killedAt)
      throws Exception {
    List<String> before = batchLines(dir, killedAt);
    Process second = start(command, root, dir.resolve("run2.log"));
    assertTrue(second.waitFor(300, TimeUnit.SECONDS), "rerun did not finish in 300 s");
    String log = Files.readString(dir.resolve("run2.log"), StandardCharsets.UTF_8);
    assertEquals(0, second.exitValue(), log);

    assertEquals(STEPS, lastCheckpoint(dir), log);
    assertFalse(log.contains("step 1/" + STEPS + " "), "the rerun started over:\n" + log);
    assertTrue(log.contains("step " + STEPS + "/" + STEPS), log);
    assertEquals(before, batchLines(dir, killedAt), "steps before the kill are kept as they were");
    auditBatches(dir);
  }

  private static List<String> command(Path root, Path dir) {
    List<String> command =
        new ArrayList<>(
            List.of(root.resolve("javelin").toString(), "run", "recipes/arith-grpo.yaml"));
    command.addAll(
        ClusterRuns.shape(
            dir,
            STEPS,
            64,
            2,
            24,
            "trainer.save_freq=1",
            "actor_rollout_ref.rollout.max_num_seqs=2"));
    command.addAll(List.of("--ray-address", ClusterRuns.address()));
    return command;
  }

  /** The process id of the one live actor of {@code className}, from the dashboard's state API. */
  private static long alivePid(String className) throws Exception {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(ClusterRuns.dashboard() + "/api/v0/actors?detail=1&limit=1000"))
                    .timeout(Duration.ofSeconds(30))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), r.body());
    List<Long> pids = new ArrayList<>();
    for (JsonNode a : JSON.readTree(r.body()).path("data").path("result").path("result")) {
      if (a.path("class_name").asText().equals(className)
          && a.path("state").asText().equals("ALIVE")) {
        pids.add(a.path("pid").asLong());
      }
    }
    assertEquals(1, pids.size(), "live " + className + " actors: " + pids);
    return pids.get(0);
  }

  /** batches.jsonl holds steps 1..STEPS once each, in order, and no prompt twice in an epoch. */
  private static void auditBatches(Path dir) throws IOException {
    List<String> lines = Files.readAllLines(dir.resolve("batches.jsonl"));
    assertEquals(STEPS, lines.size(), "one line per step:\n" + String.join("\n", lines));
    Map<Integer, Set<String>> seen = new HashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      JsonNode n = JSON.readTree(lines.get(i));
      assertEquals(i + 1, n.get("step").asInt(), "step order");
      Set<String> epoch = seen.computeIfAbsent(n.get("epoch").asInt(), e -> new HashSet<>());
      assertEquals(8, n.get("ids").size(), "a batch of 8 prompts");
      for (JsonNode id : n.get("ids")) {
        assertTrue(epoch.add(id.asText()), "prompt " + id + " seen twice in its epoch");
      }
    }
  }

  private static List<String> batchLines(Path dir, int upTo) throws IOException {
    List<String> out = new ArrayList<>();
    for (String l : Files.readAllLines(dir.resolve("batches.jsonl"))) {
      if (JSON.readTree(l).get("step").asInt() <= upTo) {
        out.add(l);
      }
    }
    return out;
  }

  private static Process start(List<String> command, Path root, Path log) throws IOException {
    String cp =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    ProcessBuilder pb = new ProcessBuilder(command).directory(root.toFile());
    pb.environment()
        .put("JAVELIN_CLASSPATH", String.join(File.pathSeparator, CodeSearchPath.of(cp)));
    // The driver must run the head's own Ray jar: another version's fails in Ray.init.
    pb.environment().put("RAY_DIST_JAR", ClusterRuns.rayVenv().resolve("ray_dist.jar").toString());
    pb.environment().put("JAVELIN_HEAP", "2g");
    pb.environment().put("JAVELIN_WORKER_HEAP", "1g");
    pb.environment().remove("RAY_ADDRESS");
    return pb.redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  private static void awaitCheckpoint(Path dir, int step, Process run) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (lastCheckpoint(dir) < step) {
      if (!run.isAlive()) {
        fail(
            "the run exited ("
                + run.exitValue()
                + ") before checkpoint "
                + step
                + ":\n"
                + Files.readString(dir.resolve("run1.log")));
      }
      if (System.nanoTime() > deadline) {
        fail(
            "no checkpoint "
                + step
                + " within 180 s:\n"
                + Files.readString(dir.resolve("run1.log")));
      }
      Thread.sleep(20);
    }
  }

  private static int lastCheckpoint(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString())
          .filter(n -> n.matches("global_step_\\d+"))
          .mapToInt(n -> Integer.parseInt(n.substring("global_step_".length())))
          .max()
          .orElse(0);
    }
  }
}
