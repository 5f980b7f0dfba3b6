package dev.javelin.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** bf16 rounding against a direct definition: the nearer of the two neighbouring bf16 values. */
class Bf16Test {
  private final Random rng = new Random(11);

  @Test
  void doublesRoundOnceToTheNearestBf16TiesToEven() {
    for (int i = 0; i < 200_000; i++) {
      double v = randomDouble(i);
      assertEquals(nearest(v), Bf16.round(v), "round(" + v + ")");
    }
  }

  @Test
  void floatsRoundToNearestEven() {
    for (int i = 0; i < 200_000; i++) {
      float f = (float) randomDouble(i);
      assertEquals(nearest(f), Bf16.round(f), "round(" + f + "f)");
    }
  }

  @Test
  void midpointsTieToEvenAndTheDoubleRoundingTrapIsAvoided() {
    float next = 1f + 0x1p-7f; // the bf16 value after 1
    double mid = 1 + 0x1p-8; // halfway: a tie, goes to the even neighbour 1
    assertEquals(1f, Bf16.round(mid));
    assertEquals(1f, Bf16.round((float) mid));
    // Just above the tie, but so little that f32 rounds it onto the tie: must still go up.
    assertEquals(next, Bf16.round(mid + 0x1p-40));
    assertEquals(1f, Bf16.round((float) (mid + 0x1p-40)), "plain f32 then bf16 rounds twice");
  }

  @Test
  void specialValues() {
    assertTrue(Float.isNaN(Bf16.round(Float.NaN)));
    assertTrue(Float.isNaN(Bf16.round(Double.NaN)));
    assertEquals(Float.POSITIVE_INFINITY, Bf16.round(Double.POSITIVE_INFINITY));
    assertEquals(Float.NEGATIVE_INFINITY, Bf16.round(-1e300));
    assertEquals(Float.POSITIVE_INFINITY, Bf16.round(Float.MAX_VALUE));
    assertEquals(0x1.fep127f, Bf16.round(0x1.fep127)); // the largest finite bf16 stays
    assertEquals(-0f, Bf16.round(-1e-60));
    assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(Bf16.round(-1e-60)));
  }

  @Test
  void bitPatternsRoundTrip() {
    float[] values = {0f, -0f, 1f, -2.5f, 0x1p-133f, 3.140625f, Float.NEGATIVE_INFINITY};
    float[] back = Bf16.fromBits(Bf16.toBits(values));
    for (int i = 0; i < values.length; i++) {
      assertEquals(Float.floatToRawIntBits(values[i]), Float.floatToRawIntBits(back[i]));
    }
  }

  /** Magnitudes across the whole bf16 range, subnormals and overflow included, both signs. */
  private double randomDouble(int i) {
    double mantissa = 1 + rng.nextDouble();
    int exponent = rng.nextInt(280) - 140;
    double v = Math.scalb(mantissa, exponent);
    if (i % 7 == 0) {
      // exact bf16 midpoints and their immediate neighbours
      double lo = Bf16.bf16ToFloat(rng.nextInt(0x7F80));
      double mid = lo + Math.ulp((float) lo) * 0x1p15;
      v = new double[] {mid, Math.nextUp(mid), Math.nextDown(mid)}[i % 3];
    }
    return rng.nextBoolean() ? v : -v;
  }

  /** The nearer bf16 neighbour of v, the even one on a tie, by exhaustive comparison in double. */
  private static float nearest(double v) {
    if (Math.abs(v) >= 0x1.ffp127) {
      return v > 0 ? Float.POSITIVE_INFINITY : Float.NEGATIVE_INFINITY; // past max + half ulp
    }
    int best = 0;
    double bestErr = Double.POSITIVE_INFINITY;
    int sign = v < 0 || (v == 0 && 1 / v < 0) ? 0x8000 : 0;
    int lo = 0;
    int hi = 0x7F7F;
    double a = Math.abs(v);
    while (hi - lo > 1) { // bisect the magnitudes (monotone in the bit pattern)
      int m = (lo + hi) >>> 1;
      if (Bf16.bf16ToFloat(m) <= a) {
        lo = m;
      } else {
        hi = m;
      }
    }
    for (int bits = lo; bits <= hi; bits++) {
      double err = Math.abs(Bf16.bf16ToFloat(bits) - a);
      if (err < bestErr || (err == bestErr && (bits & 1) == 0)) {
        best = bits;
        bestErr = err;
      }
    }
    return Bf16.bf16ToFloat(best | sign);
  }
}
