package dev.javelin.recipes.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.cli.Main;
import dev.javelin.recipes.jobs.FakeDashboard.Answer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code javelin submit|jobs} through {@link Main} against a fake dashboard: output, exit codes.
 */
class JobsCliTest {
  private final FakeDashboard dash;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  JobsCliTest() throws IOException {
    dash = new FakeDashboard();
  }

  @AfterEach
  void close() {
    dash.close();
  }

  private int run(String... args) {
    out.reset();
    err.reset();
    return Main.run(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private static Answer job(String id, String status) {
    return Answer.json(
        "{\"submission_id\": \""
            + id
            + "\", \"status\": \""
            + status
            + "\", \"start_time\": 1700000000000, \"end_time\": 1700000075000,"
            + " \"entrypoint\": \"sh bin/javelin-job.sh run x\","
            + " \"metadata\": {\"javelin_recipe\": \"recipes/arith-grpo.yaml\"}}");
  }

  @Test
  void listShowsEachJobWithItsRecipe() {
    dash.on(
        "GET /api/jobs/", call -> Answer.json("[" + job("raysubmit_a", "SUCCEEDED").body() + "]"));
    assertEquals(0, run("jobs", "list", "--address", dash.url()));
    String line = out().lines().filter(l -> l.startsWith("raysubmit_a")).findFirst().orElse("");
    assertTrue(line.contains("SUCCEEDED"), out());
    assertTrue(line.contains("2023-11-14 22:13:20"), line);
    assertTrue(line.contains("1m15s"), line);
    assertTrue(line.endsWith("recipes/arith-grpo.yaml"), line);
  }

  @Test
  void logsAndStop() {
    dash.on("GET /api/jobs/raysubmit_a/logs", Answer.json("{\"logs\": \"step 1\\n\"}"))
        .on("POST /api/jobs/raysubmit_a/stop", Answer.json("{\"stopped\": true}"))
        .on(
            "GET /api/jobs/raysubmit_a",
            call -> job("raysubmit_a", call == 0 ? "RUNNING" : "STOPPED"));
    assertEquals(0, run("jobs", "logs", "raysubmit_a", "--address", dash.url()));
    assertEquals("step 1\n", out());
    assertEquals(0, run("jobs", "stop", "raysubmit_a", "--address=" + dash.url()));
    assertTrue(out().contains("job raysubmit_a is STOPPED"), out());
  }

  @Test
  void aMissingJobOrDeadDashboardExitsWithThree() throws IOException {
    dash.on("GET /api/jobs/raysubmit_x/logs", Answer.error(404, "Job raysubmit_x does not exist"));
    assertEquals(3, run("jobs", "logs", "raysubmit_x", "--address", dash.url()));
    assertTrue(err().contains("Job raysubmit_x does not exist"), err());
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    assertEquals(3, run("jobs", "list", "--address", "127.0.0.1:" + port));
    assertTrue(err().contains("cannot reach the Ray dashboard"), err());
    assertEquals(3, run("submit", "--address", "127.0.0.1:" + port, "recipes/arith-grpo.yaml"));
    assertTrue(err().contains("cannot reach the Ray dashboard"), err());
  }

  @Test
  void usageErrorsExitWithTwo() {
    assertEquals(2, run("jobs"));
    assertTrue(err().contains("jobs needs list, logs <id> or stop <id>"), err());
    assertEquals(2, run("jobs", "logs", "--address", dash.url()));
    assertTrue(err().contains("needs one job id"), err());
    assertEquals(2, run("jobs", "stop", "a/b", "--address", dash.url()));
    assertEquals(2, run("jobs", "list", "--adress", dash.url()));
    assertTrue(err().contains("unknown option --adress"), err());
    assertEquals(2, run("submit", "--address", dash.url()));
    assertTrue(err().contains("submit needs a recipe"), err());
    assertEquals(2, run("jobs", "list", "--address", "ftp://x"));
    // A recipe typo fails before the dashboard is even asked.
    assertEquals(
        2,
        run(
            "submit",
            "--address",
            dash.url(),
            "recipes/arith-grpo.yaml",
            "data.train_bach_size=8"));
    assertTrue(err().contains("data.train_batch_size"), err());
    assertTrue(dash.requests.isEmpty(), "no request for usage errors: " + dash.requests);
  }
}
