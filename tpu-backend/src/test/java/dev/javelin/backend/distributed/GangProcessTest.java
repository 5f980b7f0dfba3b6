package dev.javelin.backend.distributed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Ranks in separate processes: this JVM is rank 0 and serves the store, a child JVM joins by
 * address ({@link Gang#join}). A child that dies is named by rank when its part never comes.
 */
class GangProcessTest {
  @Test
  void aRankInAnotherProcessSumsWithThisOne() throws Exception {
    int port = freePort();
    Process child = peer(port, 1, 2, "sum");
    try (Gang g = Gang.join(0, 2, loopback(port), Duration.ofSeconds(60))) {
      float[] x = {5f, 50f};
      g.allReduceSum(x);
      assertArrayEquals(new float[] {6f, 60f}, x);
    }
    assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child did not finish");
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, child.exitValue(), out);
    assertTrue(out.contains("sums [6.0, 60.0]"), out);
  }

  @Test
  void aRankWhoseProcessDiedIsNamed() throws Exception {
    int port = freePort();
    Process child = peer(port, 1, 2, "die");
    try (Gang g = Gang.join(0, 2, loopback(port), Duration.ofSeconds(3))) {
      assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child did not die");
      CoordinationException e =
          assertThrows(CoordinationException.class, () -> g.allReduceSum(new float[2]));
      assertTrue(e.getMessage().contains("rank 1 posted no part"), e.getMessage());
      assertThrows(CoordinationException.class, g::close); // rank 1 never reaches the close
    }
  }

  @Test
  void aRankInAnotherProcessThatAbortsStopsThisOneAtOnce() throws Exception {
    int port = freePort();
    Process child = peer(port, 1, 2, "abort");
    // a timeout far beyond the test's: only the abort can end the wait in time
    try (Gang g = Gang.join(0, 2, loopback(port), Duration.ofMinutes(10))) {
      long start = System.nanoTime();
      CoordinationException e =
          assertThrows(CoordinationException.class, () -> g.allReduceSum(new float[2]));
      double seconds = (System.nanoTime() - start) / 1e9;
      assertTrue(seconds < 60, "waited " + seconds + " s: " + e.getMessage());
      assertThrows(CoordinationException.class, g::close); // the store is gone
    }
    assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child did not finish");
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(out.contains("aborted"), out);
  }

  private static Process peer(int port, int rank, int size, String mode) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(
            List.of(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                GangPeerMain.class.getName(),
                Integer.toString(port),
                Integer.toString(rank),
                Integer.toString(size),
                mode))
        .redirectErrorStream(true)
        .start();
  }

  private static InetSocketAddress loopback(int port) {
    return new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
