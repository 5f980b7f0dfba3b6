package dev.javelin.grpo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.javelin.grpo.correction.RolloutProbsDiff;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The rollout-vs-actor probability metrics on hand-computed values. */
class RolloutProbsDiffTest {
  private static final double EPS = 1e-12;

  private static double[] logs(double... p) {
    double[] out = new double[p.length];
    for (int i = 0; i < p.length; i++) {
      out[i] = Math.log(p[i]);
    }
    return out;
  }

  @Test
  void handComputedValues() {
    // (B, T) = (2, 3); the last token of row 1 is padding and must be ignored
    double[] actor = logs(0.5, 0.2, 0.9, 0.4, 0.6, 0.01);
    double[] rollout = logs(0.6, 0.2, 0.7, 0.1, 0.6, 0.99);
    boolean[] mask = {true, true, true, true, true, false};
    Map<String, Double> m = RolloutProbsDiff.metrics(actor, rollout, mask, 2, 3);
    // d = |p_r - p_a| = 0.1, 0, 0.2, 0.3, 0 -> mean 0.12, max 0.3
    assertEquals(1.0, m.get(RolloutProbsDiff.VALID));
    assertEquals(0.3, m.get(RolloutProbsDiff.MAX), EPS);
    assertEquals(0.12, m.get(RolloutProbsDiff.MEAN), EPS);
    // Σ(d - 0.12)² = 0.0004 + 0.0144 + 0.0064 + 0.0324 + 0.0144 = 0.068; / (5 - 1)
    assertEquals(Math.sqrt(0.068 / 4), m.get(RolloutProbsDiff.STD), EPS);
    // p_a = .5 .2 .9 .4 .6 (mean .52), p_r = .6 .2 .7 .1 .6 (mean .44)
    // Σ a'r' = (-.02)(.16) + (-.32)(-.24) + (.38)(.26) + (-.12)(-.34) + (.08)(.16) = 0.226
    // Σ a'² = .0004 + .1024 + .1444 + .0144 + .0064 = 0.268
    // Σ r'² = .0256 + .0576 + .0676 + .1156 + .0256 = 0.292
    assertEquals(0.226 / Math.sqrt(0.268 * 0.292), m.get(RolloutProbsDiff.PEARSON), 1e-9);
  }

  @Test
  void identicalProbabilitiesGiveZeroDiffAndFullCorrelation() {
    double[] lp = logs(0.1, 0.5, 0.8, 0.3);
    Map<String, Double> m =
        RolloutProbsDiff.metrics(lp, lp.clone(), new boolean[] {true, true, true, true}, 1, 4);
    assertEquals(0.0, m.get(RolloutProbsDiff.MAX));
    assertEquals(0.0, m.get(RolloutProbsDiff.MEAN));
    assertEquals(0.0, m.get(RolloutProbsDiff.STD));
    assertEquals(1.0, m.get(RolloutProbsDiff.PEARSON), 1e-12);
  }

  @Test
  void edgeCases() {
    Map<String, Double> none =
        RolloutProbsDiff.metrics(logs(0.5, 0.5), logs(0.4, 0.4), new boolean[2], 1, 2);
    assertEquals(Map.of(RolloutProbsDiff.VALID, 0.0), none);
    Map<String, Double> one =
        RolloutProbsDiff.metrics(logs(0.5, 0.5), logs(0.4, 0.4), new boolean[] {true, false}, 1, 2);
    assertEquals(0.0, one.get(RolloutProbsDiff.STD));
    assertEquals(0.1, one.get(RolloutProbsDiff.MEAN), EPS);
    assertFalse(one.containsKey(RolloutProbsDiff.PEARSON), "constant sides have no correlation");
    assertThrows(
        IllegalArgumentException.class,
        () -> RolloutProbsDiff.metrics(new double[3], new double[2], new boolean[2], 1, 2));
  }
}
