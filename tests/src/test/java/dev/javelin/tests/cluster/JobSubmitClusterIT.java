package dev.javelin.tests.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.cli.Main;
import dev.javelin.recipes.jobs.JobStatus;
import dev.javelin.recipes.jobs.JobsClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code javelin submit} on the real head: the run goes up as a Ray job (this JVM's class path as
 * runtime-env packages), its driver connects in cluster mode inside the job, and submit follows it
 * to SUCCEEDED; {@code jobs list|logs} see it; the printed {@code ray job submit} line does the
 * same.
 */
class JobSubmitClusterIT {
  private static final Pattern SUBMITTED = Pattern.compile("submitted job (\\S+) in");

  /** A command's exit code and output. */
  record Cli(int code, String out, String err) {
    String all() {
      return out + err;
    }
  }

  static Cli javelin(List<String> args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        Main.run(
            args.toArray(String[]::new),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Cli(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** {@code javelin submit --address <dashboard> [options] recipes/arith-grpo.yaml <tiny run>}. */
  static List<String> submit(Path dir, int steps, String... options) {
    List<String> a = new ArrayList<>(List.of("submit", "--address", ClusterRuns.dashboard()));
    a.addAll(List.of(options));
    a.add("recipes/arith-grpo.yaml");
    a.addAll(ClusterRuns.shape(dir, steps, 32, 1, 3, "trainer.samplers=1"));
    return a;
  }

  static String submittedId(Cli c) {
    Matcher m = SUBMITTED.matcher(c.err());
    assertTrue(m.find(), "no job id in: " + c.all());
    return m.group(1);
  }

  @Test
  void submitFollowsAThreeStepRunToSuccessAndJobsCommandsSeeIt(@TempDir Path dir) {
    long t0 = System.nanoTime();
    Cli run = javelin(submit(dir, 3));
    double seconds = (System.nanoTime() - t0) / 1e9;
    assertEquals(0, run.code(), run.all());
    String id = submittedId(run);
    assertTrue(run.out().contains("finished after step 3"), "the job's log: " + run.out());
    assertTrue(run.err().contains("job " + id + " is SUCCEEDED"), run.err());
    assertTrue(Files.isRegularFile(dir.resolve("metrics.jsonl")), "the job wrote its run dir");
    System.out.printf("submit -> SUCCEEDED of a 3-step job: %.1f s%n", seconds);
    JobsClient client = new JobsClient(ClusterRuns.dashboard(), Duration.ofSeconds(10));
    assertTrue(client.info(id).entrypoint().contains("trainer.ray=cluster"), "cluster mode");

    Cli list = javelin(List.of("jobs", "list", "--address", ClusterRuns.dashboard()));
    assertEquals(0, list.code(), list.all());
    assertTrue(
        list.out().lines().anyMatch(l -> l.startsWith(id) && l.contains("SUCCEEDED")), list.out());
    Cli logs = javelin(List.of("jobs", "logs", id, "--address", ClusterRuns.dashboard()));
    assertEquals(0, logs.code(), logs.all());
    assertTrue(logs.out().contains("finished after step 3"), logs.out());

    Cli missing =
        javelin(List.of("jobs", "logs", "raysubmit_nope", "--address", ClusterRuns.dashboard()));
    assertEquals(3, missing.code(), missing.all());
    assertTrue(missing.err().contains("does not exist"), missing.err());
  }

  @Test
  void theSameRunThroughRaysOwnCli(@TempDir Path dir) throws Exception {
    Cli printed = javelin(submit(dir, 2, "--print-ray-command"));
    assertEquals(0, printed.code(), printed.all());
    String command = printed.out().strip();
    assertTrue(command.startsWith("ray job submit --address "), command);
    Path ray = ClusterRuns.rayVenv().resolve("bin/ray");
    assertTrue(Files.isExecutable(ray), "no " + ray + " (tools/setup/ray-cluster.sh install)");
    Process p =
        new ProcessBuilder("sh", "-c", ray + command.substring("ray".length()))
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    assertTrue(out.contains("finished after step 2"), out);
    Matcher m = Pattern.compile("Job '(\\S+)' succeeded").matcher(out);
    assertTrue(m.find(), out);
    JobsClient client = new JobsClient(ClusterRuns.dashboard(), Duration.ofSeconds(10));
    assertEquals(JobStatus.SUCCEEDED, client.info(m.group(1)).status());
  }
}
