package dev.javelin.recipes.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PosixSignalsTest {

  @Test
  void aDeliveredSignalRunsTheHandler() throws Exception {
    CountDownLatch delivered = new CountDownLatch(1);
    // SIGHUP rather than SIGINT: the same mechanism, without touching the test JVM's Ctrl-C.
    assertTrue(PosixSignals.handle("HUP", delivered::countDown));
    Process kill =
        new ProcessBuilder("kill", "-HUP", Long.toString(ProcessHandle.current().pid()))
            .inheritIO()
            .start();
    assertEquals(0, kill.waitFor());
    assertTrue(delivered.await(10, TimeUnit.SECONDS), "the handler did not run");
  }

  @Test
  void anUnknownSignalIsRefusedNotThrown() {
    assertFalse(PosixSignals.handle("NOSUCHSIGNAL", () -> {}));
  }
}
