package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One exit code for one meaning: a cluster nobody answers for is 3, at once and in one line, for
 * {@code status}, {@code run --ray-address} and {@code jobs list} alike.
 */
class ClusterExitCodeTest {
  private static int deadPort() throws IOException {
    try (ServerSocket free = new ServerSocket(0)) {
      return free.getLocalPort(); // closed again: nothing listens there now
    }
  }

  private record Result(int code, String out, String err, long millis) {}

  private static Result javelin(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    long t0 = System.nanoTime();
    int code =
        Main.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(
        code,
        out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8),
        (System.nanoTime() - t0) / 1_000_000);
  }

  private static void assertUnreachable(Result r, String what) {
    assertEquals(Main.CLUSTER, r.code(), what + ": " + r.err());
    assertEquals(1, r.err().lines().count(), what + ": one line\n" + r.err());
    assertTrue(r.millis() < 10_000, what + " took " + r.millis() + " ms");
  }

  @Test
  void statusWithoutAHeadIsThreeAtOnce() throws IOException {
    Result r = javelin("status", "--address", "127.0.0.1:" + deadPort());
    assertUnreachable(r, "status");
    assertTrue(r.err().contains("no Ray head answers at 127.0.0.1:"), r.err());
    assertTrue(r.err().contains("tools/setup/ray-cluster.sh start"), r.err());
  }

  @Test
  void runOnADeadHeadIsThreeToo(@TempDir Path tmp) throws IOException {
    Result r =
        javelin(
            "run",
            "recipes/arith-grpo.yaml",
            "--ray-address",
            "127.0.0.1:" + deadPort(),
            "actor_rollout_ref.model.path=",
            "actor_rollout_ref.model.warmup_recipe=",
            "actor_rollout_ref.model.tokenizer_path=char",
            "trainer.default_local_dir=" + tmp);
    assertUnreachable(r, "run --ray-address");
  }

  @Test
  void jobsListOnADeadDashboardIsThree() throws IOException {
    Result r = javelin("jobs", "list", "--address", "http://127.0.0.1:" + deadPort());
    assertUnreachable(r, "jobs list");
  }
}
