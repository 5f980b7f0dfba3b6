package dev.javelin.tests.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.recipes.ray.CodeSearchPath;
import dev.javelin.trainer.Checkpointer;
import dev.javelin.trainer.FaultPoint;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A {@code ./javelin run ... --ray-address} process the cluster ITs launch and kill, and what they
 * read back from its run directory: checkpoints, batches.jsonl and metrics.jsonl.
 */
final class LaunchedRun {
  private static final ObjectMapper JSON = new ObjectMapper();

  private LaunchedRun() {}

  /**
   * {@code ./javelin run recipes/arith-grpo.yaml} on this cluster: a tiny random-init model that
   * saves every step, for {@code steps} steps, writing into {@code dir}.
   */
  static List<String> command(Path root, Path dir, int steps, String... extra) {
    List<String> command =
        new ArrayList<>(
            List.of(root.resolve("javelin").toString(), "run", "recipes/arith-grpo.yaml"));
    List<String> more =
        new ArrayList<>(List.of("trainer.save_freq=1", "actor_rollout_ref.rollout.max_num_seqs=2"));
    more.addAll(List.of(extra));
    command.addAll(ClusterRuns.shape(dir, steps, 64, 2, 24, more.toArray(String[]::new)));
    command.addAll(List.of("--ray-address", ClusterRuns.address()));
    return command;
  }

  /** Starts {@code command} in {@code root} with its output in {@code log}. */
  static Process start(List<String> command, Path root, Path log) throws IOException {
    return start(command, root, log, null);
  }

  /**
   * Starts {@code command} in {@code root} with its output in {@code log}; a non-null {@code
   * window} ({@code POINT@K}) halts the driver there ({@link FaultPoint}).
   */
  static Process start(List<String> command, Path root, Path log, String window)
      throws IOException {
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
    if (window != null) {
      pb.environment()
          .put("JAVELIN_JAVA_OPTS", "-D" + FaultPoint.PROPERTY + "=" + window + ":halt");
    }
    return pb.redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  /**
   * Waits until {@code dir} holds checkpoint {@code step} or later; false when {@code run} exited
   * first. Fails after {@code timeoutS} seconds.
   */
  static boolean awaitCheckpoint(Path dir, int step, Process run, int timeoutS, Path log)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
    while (lastCheckpoint(dir) < step) {
      if (!run.isAlive()) {
        return false;
      }
      if (System.nanoTime() > deadline) {
        fail("no checkpoint " + step + " within " + timeoutS + " s:\n" + Files.readString(log));
      }
      Thread.sleep(20);
    }
    return true;
  }

  /**
   * The checkpoint a rerun resumes from: the step {@code dir}'s marker names, 0 when there is none.
   * Not the newest {@code global_step_N}: a run killed between the rename and the marker leaves a
   * complete step directory that the marker does not name yet, and the rerun redoes that step.
   */
  static int lastCheckpoint(Path dir) throws IOException {
    Path marker = dir.resolve(Checkpointer.MARKER);
    if (!Files.isRegularFile(marker)) {
      return 0;
    }
    String text = Files.readString(marker, StandardCharsets.UTF_8).strip();
    return text.isEmpty() ? 0 : Integer.parseInt(text);
  }

  /** batches.jsonl lines of steps up to {@code upTo}. */
  static List<String> batchLines(Path dir, int upTo) throws IOException {
    List<String> out = new ArrayList<>();
    for (String l : Files.readAllLines(dir.resolve("batches.jsonl"))) {
      if (JSON.readTree(l).get("step").asInt() <= upTo) {
        out.add(l);
      }
    }
    return out;
  }

  /** batches.jsonl holds steps 1..steps once each, in order, and no prompt twice in an epoch. */
  static void auditBatches(Path dir, int steps) throws IOException {
    List<String> lines = Files.readAllLines(dir.resolve("batches.jsonl"));
    assertEquals(steps, lines.size(), "one line per step:\n" + String.join("\n", lines));
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

  /** The process ids of the live actors of {@code className} (any job). */
  static List<Long> alivePids(String className) throws Exception {
    List<Long> pids = new ArrayList<>();
    for (ClusterRuns.Actor a : ClusterRuns.actors(className)) {
      if (a.state().equals("ALIVE")) {
        pids.add(a.pid());
      }
    }
    return pids;
  }

  /** The process id of the one live actor of {@code className}. */
  static long alivePid(String className) throws Exception {
    List<Long> pids = alivePids(className);
    assertEquals(1, pids.size(), "live " + className + " actors: " + pids);
    return pids.get(0);
  }
}
