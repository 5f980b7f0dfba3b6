package dev.javelin.recipes.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PosixSignalsTest {

  @Test
  void aDeliveredSignalRunsTheHandler() throws Exception {
    CountDownLatch delivered = new CountDownLatch(1);
    // SIGHUP rather than SIGINT: the same mechanism, without touching the test JVM's Ctrl-C.
    if (ignoredAtStart(1)) { // started under nohup: the JVM installs no handler, and must say so
      assertFalse(PosixSignals.handle("HUP", delivered::countDown));
      return;
    }
    assertTrue(PosixSignals.handle("HUP", delivered::countDown));
    Process kill =
        new ProcessBuilder("kill", "-HUP", Long.toString(ProcessHandle.current().pid()))
            .inheritIO()
            .start();
    assertEquals(0, kill.waitFor());
    assertTrue(delivered.await(10, TimeUnit.SECONDS), "the handler did not run");
  }

  /** Whether this process ignores signal {@code number} (the SigIgn mask of /proc/self/status). */
  private static boolean ignoredAtStart(int number) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("SigIgn:")) {
        long mask = Long.parseUnsignedLong(line.substring(7).trim(), 16);
        return (mask & (1L << (number - 1))) != 0;
      }
    }
    throw new IllegalStateException("/proc/self/status has no SigIgn line");
  }

  @Test
  void anUnknownSignalIsRefusedNotThrown() {
    assertFalse(PosixSignals.handle("NOSUCHSIGNAL", () -> {}));
  }
}
