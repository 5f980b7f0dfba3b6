package dev.javelin.recipes.jobs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.recipes.jobs.FakeDashboard.Answer;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class JobsClientTest {
  private static final String JOB =
      """
      {"type": "SUBMISSION", "job_id": "02000000", "submission_id": "raysubmit_abc",
       "driver_info": null, "status": "RUNNING", "entrypoint": "sh bin/javelin-job.sh run r.yaml",
       "message": "Job is currently running.", "error_type": null, "start_time": 1700000000000,
       "end_time": null, "metadata": {"javelin_recipe": "r.yaml"}, "runtime_env": {},
       "driver_agent_http_address": "http://127.0.0.1:52365", "driver_node_id": "n1",
       "driver_exit_code": null}
      """;
  private final FakeDashboard dash;
  private final JobsClient client;

  JobsClientTest() throws IOException {
    dash = new FakeDashboard();
    client = new JobsClient(dash.url(), Duration.ofSeconds(2));
  }

  @AfterEach
  void close() {
    dash.close();
  }

  @Test
  void submitPostsRaysRequestShapeAndReturnsTheId() throws IOException {
    dash.on(
        "POST /api/jobs/",
        Answer.json("{\"job_id\": \"raysubmit_x1\", \"submission_id\": \"raysubmit_x1\"}"));
    JobSubmission s =
        new JobSubmission(
            "sh bin/javelin-job.sh run r.yaml",
            "gcs://_ray_pkg_0123456789abcdef.zip",
            List.of("gcs://_ray_pkg_fedcba9876543210.zip"),
            Map.of("JAVELIN_JOB_JARS", "_ray_pkg_fedcba9876543210"),
            Map.of("javelin_recipe", "r.yaml"));
    assertEquals("raysubmit_x1", client.submit(s));
    JsonNode body = new ObjectMapper().readTree(dash.requests("POST", "/api/jobs/").get(0).text());
    assertEquals("sh bin/javelin-job.sh run r.yaml", body.get("entrypoint").asText());
    JsonNode env = body.get("runtime_env");
    assertEquals("gcs://_ray_pkg_0123456789abcdef.zip", env.get("working_dir").asText());
    assertEquals("gcs://_ray_pkg_fedcba9876543210.zip", env.get("java_jars").get(0).asText());
    assertEquals("_ray_pkg_fedcba9876543210", env.get("env_vars").get("JAVELIN_JOB_JARS").asText());
    assertEquals("r.yaml", body.get("metadata").get("javelin_recipe").asText());
  }

  @Test
  void infoListLogsAndStopParseTheApisAnswers() {
    dash.on("GET /api/jobs/raysubmit_abc", Answer.json(JOB))
        .on(
            "GET /api/jobs/",
            Answer.json(
                "["
                    + JOB
                    + ", {\"type\": \"DRIVER\", \"job_id\":"
                    + " \"01000000\", \"submission_id\": null, \"status\": \"SUCCEEDED\","
                    + " \"entrypoint\": \"\"}]"))
        .on("GET /api/jobs/raysubmit_abc/logs", Answer.json("{\"logs\": \"line 1\\nline 2\\n\"}"))
        .on("POST /api/jobs/raysubmit_abc/stop", Answer.json("{\"stopped\": true}"));
    JobInfo info = client.info("raysubmit_abc");
    assertEquals(JobStatus.RUNNING, info.status());
    assertEquals(1700000000000L, info.startMillis());
    assertEquals(0, info.endMillis());
    assertEquals("r.yaml", info.metadata().get("javelin_recipe"));
    List<JobInfo> all = client.list();
    assertEquals(List.of("raysubmit_abc", "01000000"), all.stream().map(JobInfo::id).toList());
    assertEquals("DRIVER", all.get(1).type());
    assertEquals("line 1\nline 2\n", client.logs("raysubmit_abc"));
    assertTrue(client.stop("raysubmit_abc"));
  }

  @Test
  void packagesAreUploadedOnlyWhenTheClusterLacksThem() {
    JobPackage p = JobPackage.of(Map.of("a.txt", "hello".getBytes(StandardCharsets.UTF_8)));
    String path = "/api/packages/gcs/" + p.name();
    dash.on(
            "GET " + path,
            call -> call == 0 ? Answer.error(404, "Package does not exist") : Answer.json(""))
        .on("PUT " + path, Answer.json(""));
    assertTrue(client.uploadIfMissing(p));
    assertFalse(client.uploadIfMissing(p));
    assertEquals(1, dash.requests("PUT", path).size());
    assertArrayEquals(p.zip(), dash.requests("PUT", path).get(0).body());
  }

  @Test
  void httpErrorsQuoteTheDashboardsMessage() {
    dash.on("GET /api/jobs/nope", Answer.error(404, "Job nope does not exist"))
        .on(
            "POST /api/jobs/",
            Answer.error(
                400, "Traceback (most recent call last):\n  File x\nTypeError: bad entrypoint"))
        .on("GET /api/jobs/", Answer.error(500, "boom"));
    JobsApiException notFound = assertThrows(JobsApiException.class, () -> client.info("nope"));
    assertEquals(404, notFound.status());
    assertTrue(notFound.getMessage().contains("Job nope does not exist"), notFound.getMessage());
    JobSubmission s = new JobSubmission("true", null, List.of(), Map.of(), Map.of());
    JobsApiException bad = assertThrows(JobsApiException.class, () -> client.submit(s));
    assertEquals(400, bad.status());
    assertTrue(bad.getMessage().endsWith("TypeError: bad entrypoint"), bad.getMessage());
    assertEquals(500, assertThrows(JobsApiException.class, client::list).status());
  }

  @Test
  void malformedAnswersAreErrorsNotCrashes() {
    dash.on("GET /api/jobs/", Answer.json("{not json"))
        .on("GET /api/jobs/a", Answer.json("{\"submission_id\": \"a\", \"status\": \"DANCING\"}"))
        .on("GET /api/jobs/b", Answer.json("[1, 2]"))
        .on("GET /api/jobs/c/logs", Answer.json("{\"no_logs\": 1}"))
        .on("GET /api/jobs/d", Answer.json("[".repeat(100) + "]".repeat(100)));
    assertTrue(
        assertThrows(JobsApiException.class, client::list).getMessage().contains("invalid JSON"));
    assertTrue(
        assertThrows(JobsApiException.class, () -> client.info("a"))
            .getMessage()
            .contains("unknown job status 'DANCING'"));
    assertThrows(JobsApiException.class, () -> client.info("b"));
    assertTrue(
        assertThrows(JobsApiException.class, () -> client.logs("c"))
            .getMessage()
            .contains("no 'logs'"));
    assertTrue(
        assertThrows(JobsApiException.class, () -> client.info("d"))
            .getMessage()
            .contains("invalid JSON"));
  }

  @Test
  void aSlowDashboardTimesOut() {
    dash.on("GET /api/version", new Answer(200, "{\"ray_version\": \"2.9.3\"}", 3000));
    JobsClient impatient = new JobsClient(dash.url(), Duration.ofMillis(300));
    JobsApiException e = assertThrows(JobsApiException.class, impatient::rayVersion);
    assertTrue(e.getMessage().contains("did not answer within"), e.getMessage());
  }

  @Test
  void anUnreachableDashboardSaysWhatToCheck() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    JobsClient none = new JobsClient("127.0.0.1:" + port, Duration.ofSeconds(2));
    JobsApiException e = assertThrows(JobsApiException.class, none::list);
    assertTrue(e.getMessage().contains("cannot reach the Ray dashboard"), e.getMessage());
  }

  @Test
  void idsAndAddressesAreCheckedBeforeAnyRequest() {
    assertThrows(IllegalArgumentException.class, () -> client.info("../../api/version"));
    assertThrows(IllegalArgumentException.class, () -> client.stop("a b"));
    assertThrows(
        IllegalArgumentException.class, () -> new JobsClient("ftp://x", Duration.ofSeconds(1)));
    assertEquals("http://h:1/", new JobsClient("h:1", Duration.ofSeconds(1)).base().toString());
    assertTrue(dash.requests.isEmpty());
  }
}
