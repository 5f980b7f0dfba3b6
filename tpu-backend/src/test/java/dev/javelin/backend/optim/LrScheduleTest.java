package dev.javelin.backend.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class LrScheduleTest {
  @Test
  void constantIsConstant() {
    LrSchedule s = new LrSchedule.Constant(1e-6);
    assertEquals(1e-6, s.lr(0));
    assertEquals(1e-6, s.lr(1_000_000));
  }

  @Test
  void linearWarmupRampsThenHolds() {
    LrSchedule s = new LrSchedule.LinearWarmup(1.0, 4);
    assertEquals(0.25, s.lr(0), 1e-12);
    assertEquals(0.75, s.lr(2), 1e-12);
    assertEquals(1.0, s.lr(3), 1e-12);
    assertEquals(1.0, s.lr(100), 1e-12);
  }

  @Test
  void cosineWarmsUpThenDecaysToTheFloor() {
    LrSchedule s = new LrSchedule.Cosine(2.0, 2, 12, 0.1);
    assertEquals(1.0, s.lr(0), 1e-12);
    assertEquals(2.0, s.lr(2), 1e-12);
    // halfway through the decay: floor + half the range
    assertEquals(2.0 * (0.1 + 0.9 * 0.5), s.lr(7), 1e-12);
    assertEquals(0.2, s.lr(12), 1e-12);
    assertEquals(0.2, s.lr(50), 1e-12);
  }

  @Test
  void rejectsBadParameters() {
    assertThrows(IllegalArgumentException.class, () -> new LrSchedule.Constant(-1));
    assertThrows(IllegalArgumentException.class, () -> new LrSchedule.Cosine(1, 5, 5, 0));
    assertThrows(IllegalArgumentException.class, () -> new LrSchedule.Cosine(1, 0, 5, 2));
    assertThrows(IllegalArgumentException.class, () -> new AdamWConfig(1.0, 0.9, 1e-8, 0, 1));
  }
}
