package dev.javelin.grpo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.grpo.loss.PpoClipLoss;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Bounds the clipped objectives must respect, on many random tokens. */
class ClippingPropertiesTest {
  private static final double LOW = 0.2;
  private static final double HIGH = 0.28;
  private static final double C = 3.0;
  private static final PolicyLossConfig CFG =
      PolicyLossConfig.builder().clipRatioLow(LOW).clipRatioHigh(HIGH).clipRatioC(C).build();

  @Test
  void vanillaClipBoundsHold() {
    SplittableRandom rng = new SplittableRandom(17);
    int n = 20000;
    double[] lp = new double[n];
    double[] old = new double[n];
    double[] adv = new double[n];
    boolean[] mask = new boolean[n];
    for (int i = 0; i < n; i++) {
      old[i] = -Math.abs(RandomBatches.normal(rng));
      lp[i] = old[i] + 1.5 * RandomBatches.normal(rng);
      adv[i] = 2 * RandomBatches.normal(rng);
      mask[i] = true;
    }
    PolicyLossTerms t = PpoClipLoss.compute(lp, old, adv, mask, CFG);
    for (int i = 0; i < n; i++) {
      double r = Math.exp(lp[i] - old[i]);
      double a = adv[i];
      if (a > 0) {
        // the objective −L never credits more than (1 + ε_high)·Â
        assertTrue(-t.loss()[i] <= (1 + HIGH) * a + 1e-12, "upper clip at " + i);
        if (r > 1 + HIGH) {
          assertEquals(0.0, t.dLoss()[i], "no gradient above 1 + ε_high for Â > 0");
        }
      } else if (a < 0) {
        // dual clip: the loss never exceeds −Â·c
        assertTrue(t.loss()[i] <= -a * C + 1e-12, "dual clip at " + i);
        if (r < 1 - LOW || r > C) {
          assertEquals(0.0, t.dLoss()[i], "no gradient below 1 − ε_low or above c for Â < 0");
        }
      }
      if (r >= 1 - LOW && r <= 1 + HIGH) {
        assertEquals(-a * r, t.dLoss()[i], 1e-12, "unclipped PPO gradient −Â·r");
      }
    }
    double frac = t.metrics().get("actor/pg_clipfrac");
    double lower = t.metrics().get("actor/pg_clipfrac_lower");
    assertTrue(frac > 0 && frac < 1, "clip fraction " + frac);
    assertTrue(lower > 0 && lower < frac, "dual-clip fraction " + lower);
  }

  @Test
  void logRatioIsClampedBeforeExp() {
    double[] lp = {0.0, -50.0};
    double[] old = {-50.0, 0.0};
    double[] adv = {1.0, -1.0};
    boolean[] mask = {true, true};
    PolicyLossTerms t = PpoClipLoss.compute(lp, old, adv, mask, PolicyLossConfig.defaults());
    assertTrue(Double.isFinite(t.loss()[0]) && Double.isFinite(t.loss()[1]));
    assertEquals(0.0, t.dLoss()[0]);
    assertEquals(0.0, t.dLoss()[1]);
    assertEquals(0.0, t.metrics().get("actor/ppo_kl"), 1e-7, "(−20 + 20)/2");
  }

  @Test
  void cispoWeightStaysInsideTheClipRange() {
    PolicyBatch b = RandomBatches.batch(new SplittableRandom(5), 30, 20);
    PolicyLossConfig cfg =
        PolicyLossConfig.builder()
            .lossMode(PolicyLossMode.CISPO)
            .clipRatioLow(LOW)
            .clipRatioHigh(HIGH)
            .build();
    PolicyLossTerms t = PolicyLossMode.CISPO.compute(b, cfg);
    for (int i = 0; i < b.size(); i++) {
      double a = Math.abs(b.advantages()[i]);
      assertTrue(Math.abs(t.dLoss()[i]) <= (1 + HIGH) * a + 1e-12);
      assertTrue(Math.abs(t.dLoss()[i]) >= (1 - LOW) * a - 1e-12);
    }
  }
}
