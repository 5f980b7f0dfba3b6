package dev.javelin.recipes.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.javelin.sampler.FinishReason;
import dev.javelin.sampler.Rollout;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OverlapMetricsTest {
  private static Rollout rollout(long version) {
    return new Rollout(
        "r", "p", new int[] {1}, new int[] {2}, new float[] {-1f}, FinishReason.STOP, version, 0.1);
  }

  @Test
  void stalenessIsTrainerVersionMinusRolloutVersion() {
    Map<String, Double> m =
        OverlapMetrics.of(List.of(rollout(4), rollout(3), rollout(4)), 4, 0.25, 0.5, 1.0, 2, 3);
    assertEquals(1.0 / 3, m.get("rollout/staleness/mean"), 1e-12);
    assertEquals(1.0, m.get("rollout/staleness/max"));
    assertEquals(0.25, m.get("trainer/idle_ratio"));
    assertEquals(0.5, m.get("rollout/idle_ratio"));
    assertEquals(2.0, m.get("rollout/sampler_restarts"));
    assertEquals(3.0, m.get("rollout/sampler_rejected"));
  }

  @Test
  void ratiosStayInZeroOne() {
    Map<String, Double> m = OverlapMetrics.of(List.of(rollout(0)), 0, 2.0, 3.0, 1.0, 0, 0);
    assertEquals(1.0, m.get("trainer/idle_ratio"));
    assertEquals(0.0, m.get("rollout/idle_ratio"));
    assertEquals(0.0, m.get("rollout/staleness/max"));
  }
}
