package dev.javelin.tests.cluster;

import static dev.javelin.tests.cluster.JobSubmitClusterIT.javelin;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.tests.cluster.JobSubmitClusterIT.Cli;
import dev.javelin.trainer.CheckpointManifest;
import dev.javelin.trainer.Checkpointer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code javelin jobs stop <id>} on a live job: Ray's SIGTERM reaches the job's driver, which
 * finishes its step and saves a checkpoint and report as Ctrl-C does (no {@code .tmp-} leftover);
 * submitting the same run again resumes from that step, and metrics.jsonl holds every step once.
 */
class JobStopClusterIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A run far longer than the test waits: the stop, not the end, finishes it. */
  private static final int LONG_RUN = 2000;

  private static List<String> submit(Path dir, int steps, String... options) {
    List<String> a = new ArrayList<>(List.of("submit", "--address", ClusterRuns.dashboard()));
    a.addAll(List.of(options));
    a.add("recipes/arith-grpo.yaml");
    a.addAll(ClusterRuns.shape(dir, steps, 32, 1, 3, "trainer.samplers=1"));
    return a;
  }

  @Test
  void jobsStopSavesACheckpointAndReportAndASubmitAgainResumesThere(@TempDir Path dir)
      throws Exception {
    Cli started = javelin(submit(dir, LONG_RUN, "--no-wait"));
    assertEquals(0, started.code(), started.all());
    String id = JobSubmitClusterIT.submittedId(started);
    awaitSteps(dir, 2, Duration.ofMinutes(5));

    Cli stop = javelin(List.of("jobs", "stop", id, "--address", ClusterRuns.dashboard()));
    assertEquals(0, stop.code(), stop.all());
    assertTrue(stop.out().contains("job " + id + " is STOPPED"), stop.all());

    Path marker = dir.resolve(Checkpointer.MARKER);
    assertTrue(Files.isRegularFile(marker), "no checkpoint marker after the stop: " + list(dir));
    int k = Integer.parseInt(Files.readString(marker).strip());
    assertTrue(k >= 2 && k < LONG_RUN, "stopped at step " + k);
    Path ckpt = dir.resolve("global_step_" + k);
    assertTrue(
        Files.isRegularFile(ckpt.resolve(CheckpointManifest.FILE)),
        "checkpoint " + ckpt + " is not complete: " + list(dir));
    assertTrue(
        list(dir).stream().noneMatch(n -> n.startsWith(".tmp-")),
        "a checkpoint left half-written: " + list(dir));
    assertTrue(Files.isRegularFile(dir.resolve("report.html")), "no report: " + list(dir));
    assertEquals(range(k), steps(dir), "metrics.jsonl after the stop");
    Cli logs = javelin(List.of("jobs", "logs", id, "--address", ClusterRuns.dashboard()));
    assertTrue(logs.out().contains("stopped after step " + k), logs.all());

    Cli rerun = javelin(submit(dir, k + 2));
    assertEquals(0, rerun.code(), rerun.all());
    assertTrue(rerun.out().contains("finished after step " + (k + 2)), rerun.out());
    assertEquals(range(k + 2), steps(dir), "metrics.jsonl after the rerun: steps once each");
    assertTrue(
        Files.isRegularFile(dir.resolve("global_step_" + (k + 2)).resolve(CheckpointManifest.FILE)),
        list(dir).toString());
  }

  /** Waits until metrics.jsonl has a line for step {@code step}. */
  private static void awaitSteps(Path dir, int step, Duration timeout)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.isRegularFile(dir.resolve("metrics.jsonl")) && steps(dir).contains(step)) {
        return;
      }
      Thread.sleep(200);
    }
    fail("the job logged no step " + step + " within " + timeout + ": " + list(dir));
  }

  /** The training steps metrics.jsonl logs, in file order (step 0, validation only, left out). */
  private static List<Integer> steps(Path dir) throws IOException {
    List<Integer> out = new ArrayList<>();
    for (String line : Files.readAllLines(dir.resolve("metrics.jsonl"))) {
      if (line.endsWith("}")) { // a line still being written is not counted yet
        JsonNode n = JSON.readTree(line);
        if (n.path("step").asInt(0) > 0) {
          out.add(n.get("step").asInt());
        }
      }
    }
    return out;
  }

  private static List<Integer> range(int last) {
    return IntStream.rangeClosed(1, last).boxed().toList();
  }

  private static List<String> list(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
