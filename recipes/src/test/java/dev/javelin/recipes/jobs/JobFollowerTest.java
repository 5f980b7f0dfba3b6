package dev.javelin.recipes.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.jobs.FakeDashboard.Answer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class JobFollowerTest {
  private final FakeDashboard dash;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final JobFollower follower;

  JobFollowerTest() throws IOException {
    dash = new FakeDashboard();
    follower =
        new JobFollower(
            new JobsClient(dash.url(), Duration.ofSeconds(2)),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            Duration.ofSeconds(1),
            d -> {});
  }

  @AfterEach
  void close() {
    dash.close();
  }

  private static Answer job(String status) {
    return Answer.json(
        "{\"submission_id\": \"j\", \"status\": \""
            + status
            + "\", \"message\": \"m "
            + status
            + "\"}");
  }

  private static Answer logs(String text) {
    return Answer.json("{\"logs\": \"" + text.replace("\n", "\\n") + "\"}");
  }

  @Test
  void printsEachPieceOfTheLogOnceAndReturnsTheFinalStatus() throws InterruptedException {
    List<String> statuses = List.of("PENDING", "RUNNING", "RUNNING", "SUCCEEDED");
    List<String> texts = List.of("", "a\n", "a\nb\n", "a\nb\nc\n", "a\nb\nc\nsummary\n");
    dash.on("GET /api/jobs/j", call -> job(statuses.get(Math.min(call, statuses.size() - 1))))
        .on("GET /api/jobs/j/logs", call -> logs(texts.get(Math.min(call, texts.size() - 1))));
    JobInfo end = follower.follow("j");
    assertEquals(JobStatus.SUCCEEDED, end.status());
    assertEquals("a\nb\nc\nsummary\n", out.toString(StandardCharsets.UTF_8));
    String e = err.toString(StandardCharsets.UTF_8);
    assertTrue(e.contains("job j is PENDING: m PENDING"), e);
    assertTrue(e.contains("job j is SUCCEEDED: m SUCCEEDED"), e);
    assertEquals(1, e.split("is RUNNING", -1).length - 1, e);
  }

  @Test
  void transientErrorsAreRetriedButAMissingJobIsNot() throws InterruptedException {
    dash.on("GET /api/jobs/j", call -> call == 0 ? Answer.error(503, "busy") : job("FAILED"))
        .on("GET /api/jobs/j/logs", logs("boom\n"));
    assertEquals(JobStatus.FAILED, follower.follow("j").status());
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("(retrying)"));
    dash.on("GET /api/jobs/k", Answer.error(404, "Job k does not exist"));
    assertEquals(404, assertThrows(JobsApiException.class, () -> follower.follow("k")).status());
  }

  @Test
  void aDashboardThatStaysDownEndsTheFollow() {
    dash.on("GET /api/jobs/j", Answer.error(500, "down"));
    JobsApiException e = assertThrows(JobsApiException.class, () -> follower.follow("j"));
    assertEquals(500, e.status());
    assertEquals(
        JobFollower.MAX_FAILED_POLLS - 1,
        err.toString(StandardCharsets.UTF_8).split("retrying", -1).length - 1);
  }
}
