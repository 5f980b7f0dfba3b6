package dev.javelin.backend.cpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The vectorised f32 exp and logistic against double-precision {@code Math.exp}. */
class ExpLoopsTest {
  /**
   * Every float step of ~1e-4 over [-110, 95]: the whole range, underflow and overflow included.
   */
  private static float[] sweep() {
    int n = 2_050_000;
    float[] x = new float[n];
    for (int i = 0; i < n; i++) {
      x[i] = -110f + i * 1e-4f;
    }
    return x;
  }

  @Test
  void expIsWithinTwoTenthsOfAMillionthEverywhere() {
    float[] x = sweep();
    float[] y = new float[x.length];
    ExpLoops.exp(x, 0, y, 0, x.length);
    double worstRel = 0;
    double worstAbs = 0;
    for (int i = 0; i < x.length; i++) {
      double want = Math.exp(x[i]);
      if ((float) want == Float.POSITIVE_INFINITY) {
        assertEquals(Float.POSITIVE_INFINITY, y[i], "exp(" + x[i] + ") overflows");
      } else if (want >= Float.MIN_NORMAL) {
        worstRel = Math.max(worstRel, Math.abs(y[i] - want) / want);
      } else {
        worstAbs = Math.max(worstAbs, Math.abs(y[i] - want));
      }
    }
    assertTrue(worstRel < 2e-7, "relative error " + worstRel);
    assertTrue(worstAbs <= Float.MIN_VALUE, "absolute error below the normal range " + worstAbs);
  }

  @Test
  void logisticIsWithinAFewUlpsEverywhere() {
    float[] x = sweep();
    float[] y = new float[x.length];
    ExpLoops.logistic(x, 0, y, 0, x.length);
    double worstRel = 0;
    double worstAbs = 0;
    for (int i = 0; i < x.length; i++) {
      double want = 1 / (1 + Math.exp(-(double) x[i]));
      if (want >= Float.MIN_NORMAL) {
        worstRel = Math.max(worstRel, Math.abs(y[i] - want) / want);
      } else {
        worstAbs = Math.max(worstAbs, Math.abs(y[i] - want));
      }
    }
    assertTrue(worstRel < 3e-7, "relative error " + worstRel);
    // Below x = -88.72 exp(-x) overflows and the result is 0 where the exact value is at most
    // 2.94e-39, a quarter of the smallest normal float.
    assertTrue(
        worstAbs < Float.MIN_NORMAL / 4, "absolute error below the normal range " + worstAbs);
  }

  @Test
  void edges() {
    float[] x = {
      Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 0f, -0f, 1e9f, -1e9f, 88.73f
    };
    float[] e = new float[x.length];
    float[] s = new float[x.length];
    ExpLoops.exp(x, 0, e, 0, x.length);
    ExpLoops.logistic(x, 0, s, 0, x.length);
    assertArrayEquals(
        new float[] {
          Float.NaN,
          Float.POSITIVE_INFINITY,
          0f,
          1f,
          1f,
          Float.POSITIVE_INFINITY,
          0f,
          Float.POSITIVE_INFINITY
        },
        e);
    assertArrayEquals(new float[] {Float.NaN, 1f, 0f, 0.5f, 0.5f, 1f, 0f, 1f}, s);
  }

  @Test
  void offsetsOddLengthsAndInPlace() {
    float[] x = new float[1000];
    for (int i = 0; i < x.length; i++) {
      x[i] = (float) Math.sin(i) * 30;
    }
    float[] out = new float[1010];
    ExpLoops.logistic(x, 7, out, 3, 601); // crosses chunk boundaries at an odd length
    float[] inPlace = x.clone();
    ExpLoops.exp(inPlace, 0, inPlace, 0, inPlace.length);
    for (int i = 0; i < 601; i++) {
      assertEquals(1 / (1 + Math.exp(-(double) x[7 + i])), out[3 + i], 1e-6, "logistic at " + i);
    }
    assertEquals(0f, out[2]);
    assertEquals(0f, out[604]);
    for (int i = 0; i < x.length; i++) {
      assertEquals(Math.exp(x[i]), inPlace[i], Math.exp(x[i]) * 2e-7, "exp at " + i);
    }
  }

  @Test
  void shortRunsGiveTheSameBitsAsLongOnes() {
    float[] x = new float[700];
    for (int i = 0; i < x.length; i++) {
      x[i] = (float) Math.sin(i * 0.37) * 95;
    }
    float[] longExp = new float[x.length];
    float[] longLogistic = new float[x.length];
    ExpLoops.exp(x, 0, longExp, 0, x.length);
    ExpLoops.logistic(x, 0, longLogistic, 0, x.length);
    float[] one = new float[1];
    for (int i = 0; i < x.length; i++) {
      ExpLoops.exp(x, i, one, 0, 1);
      assertEquals(longExp[i], one[0], 0f, "exp at " + x[i]);
      ExpLoops.logistic(x, i, one, 0, 1);
      assertEquals(longLogistic[i], one[0], 0f, "logistic at " + x[i]);
    }
  }
}
