package dev.javelin.recipes.ray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A dead trainer worker is one line: Ray's first line, then what to do. */
class TrainerDiedExceptionTest {
  @Test
  void oneLineWithoutRaysTrace() {
    String m =
        new TrainerDiedException(
                "The actor died unexpectedly before finishing this task.\n\tat io.ray.X.y(X.java:1)",
                null)
            .getMessage();
    assertEquals(1, m.lines().count(), m);
    assertTrue(m.startsWith("the trainer actor's worker process died (The actor died"), m);
    assertTrue(m.endsWith("rerun the same command to resume from its last checkpoint"), m);
  }
}
