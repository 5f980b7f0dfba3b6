package dev.javelin.backend.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The f32 exp used by fused loops, against {@code Math.exp} over its whole range. */
class FastMathTest {

  @Test
  void expIsWithinAFewUlpsEverywhere() {
    double worst = 0;
    float worstAt = 0;
    for (float x = -87.3f; x < 88.7f; x += 0.000731f) {
      double want = Math.exp(x);
      double rel = Math.abs(FastMath.exp(x) - want) / want;
      if (rel > worst) {
        worst = rel;
        worstAt = x;
      }
    }
    assertTrue(worst < 3e-7, "relative error " + worst + " at x = " + worstAt);
  }

  @Test
  void expEdges() {
    assertEquals(Float.POSITIVE_INFINITY, FastMath.exp(89f));
    assertEquals(Float.POSITIVE_INFINITY, FastMath.exp(Float.POSITIVE_INFINITY));
    assertEquals(0f, FastMath.exp(Float.NEGATIVE_INFINITY));
    assertEquals(0f, FastMath.exp(-1e9f));
    assertTrue(Float.isNaN(FastMath.exp(Float.NaN)));
    assertEquals(1f, FastMath.exp(0f));
    assertEquals(
        (float) Math.exp(88.7f), FastMath.exp(88.7f), Math.ulp((float) Math.exp(88.7f)) * 3);
  }
}
