package dev.javelin.recipes.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What Ctrl-C or SIGTERM does in each phase of a run, and what it says. */
class StopSignalTest {
  private final ByteArrayOutputStream text = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(text, true, StandardCharsets.UTF_8);
  private final List<Integer> exits = new ArrayList<>();

  private String said() {
    return text.toString(StandardCharsets.UTF_8);
  }

  @Test
  void duringStartUpItExitsAtOnceAndPromisesNoCheckpoint() {
    StopSignal s = new StopSignal();
    s.onSignal(err, exits::add);
    assertEquals(List.of(StopSignal.SIGNALLED), exits);
    assertTrue(said().contains("during start-up"), said());
    assertFalse(said().contains("saving a checkpoint"), said());
  }

  @Test
  void inTheLoopItFinishesTheStepThenASecondSignalExits() {
    StopSignal s = new StopSignal();
    s.running();
    s.onSignal(err, exits::add);
    assertTrue(s.requested());
    assertEquals(List.of(), exits);
    assertTrue(said().contains("finishing the step and saving a checkpoint"), said());
    s.onSignal(err, exits::add);
    assertEquals(List.of(StopSignal.SIGNALLED), exits);
  }

  @Test
  void afterTheLoopItExits() {
    StopSignal s = new StopSignal();
    s.running();
    s.finished();
    s.onSignal(err, exits::add);
    assertEquals(List.of(StopSignal.SIGNALLED), exits);
    assertFalse(said().contains("saving a checkpoint"), said());
  }
}
