package dev.javelin.sampler.sampling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.sampler.SamplingParams;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TokenSamplerTest {
  private static final float[] LOGITS = {1.0f, 3.0f, 0.5f, 2.5f, -1.0f, 2.9f};
  private static final int V = LOGITS.length;

  private static double[] softmax(double tau) {
    double[] p = new double[V];
    double sum = 0;
    for (int i = 0; i < V; i++) {
      p[i] = Math.exp(LOGITS[i] / tau);
      sum += p[i];
    }
    for (int i = 0; i < V; i++) {
      p[i] /= sum;
    }
    return p;
  }

  private static SamplingParams params(double tau, int topK, double topP, double minP) {
    return new SamplingParams(tau, topK, topP, minP, 16, new int[0], false);
  }

  private static double[] frequencies(SamplingParams p, int draws) {
    SplittableRandom rng = new SplittableRandom(42);
    double[] f = new double[V];
    for (int i = 0; i < draws; i++) {
      f[TokenSampler.choose(LOGITS, 0, V, p, rng).token()] += 1.0 / draws;
    }
    return f;
  }

  @Test
  void logProbIsTheUntruncatedTemperatureSoftmax() {
    for (double tau : new double[] {0.5, 1.0, 1.7}) {
      double[] p = softmax(tau);
      SplittableRandom rng = new SplittableRandom(1);
      for (int i = 0; i < 50; i++) {
        TokenChoice c = TokenSampler.choose(LOGITS, 0, V, params(tau, 2, 0.9, 0.1), rng);
        assertEquals(Math.log(p[c.token()]), c.logProb(), 1e-6, "tau " + tau);
      }
    }
  }

  @Test
  void samplingFollowsTheSoftmax() {
    double[] p = softmax(0.8);
    double[] f = frequencies(params(0.8, -1, 1.0, 0.0), 40_000);
    for (int i = 0; i < V; i++) {
      assertEquals(p[i], f[i], 0.01, "token " + i);
    }
  }

  @Test
  void topKKeepsTheKMostLikelyRenormalised() {
    double[] p = softmax(1.0);
    double[] f = frequencies(params(1.0, 2, 1.0, 0.0), 40_000);
    double mass = p[1] + p[5];
    for (int i = 0; i < V; i++) {
      double expected = i == 1 || i == 5 ? p[i] / mass : 0;
      assertEquals(expected, f[i], 0.01, "token " + i);
    }
  }

  @Test
  void topPKeepsTheSmallestNucleusReachingP() {
    // probabilities sorted: 1 (0.34), 5 (0.31), 3 (0.21), 0 ... : 0.6 needs tokens 1 and 5
    double[] p = softmax(1.0);
    double[] f = frequencies(params(1.0, -1, 0.6, 0.0), 40_000);
    assertEquals(p[1] / (p[1] + p[5]), f[1], 0.01);
    assertEquals(p[5] / (p[1] + p[5]), f[5], 0.01);
    assertEquals(0, f[3] + f[0] + f[2] + f[4], 0.0);
    double[] f2 = frequencies(params(1.0, -1, 0.7, 0.0), 20_000);
    assertTrue(f2[3] > 0.1, "0.7 needs the third token too");
  }

  @Test
  void minPDropsTokensBelowAFractionOfTheTop() {
    double[] p = softmax(1.0);
    double[] f = frequencies(params(1.0, -1, 1.0, 0.5), 20_000);
    for (int i = 0; i < V; i++) {
      boolean kept = p[i] >= 0.5 * p[1];
      assertEquals(kept, f[i] > 0, "token " + i);
    }
  }

  @Test
  void greedyTakesTheFirstArgMaxAtTemperatureOne() {
    float[] ties = {0.1f, 2f, 2f, -3f};
    TokenChoice c =
        TokenSampler.choose(ties, 0, 4, SamplingParams.greedy(4), new SplittableRandom(9));
    assertEquals(1, c.token());
    double z = Math.exp(0.1) + 2 * Math.exp(2) + Math.exp(-3);
    assertEquals(2 - Math.log(z), c.logProb(), 1e-6);
  }

  @Test
  void sameSeedSameTokensAndReadsTheRowAtItsOffset() {
    float[] twoRows = new float[2 * V];
    System.arraycopy(LOGITS, 0, twoRows, V, V);
    SplittableRandom a = new SplittableRandom(7);
    SplittableRandom b = new SplittableRandom(7);
    SamplingParams p = params(1.3, -1, 0.95, 0.0);
    for (int i = 0; i < 100; i++) {
      assertEquals(
          TokenSampler.choose(LOGITS, 0, V, p, a), TokenSampler.choose(twoRows, V, V, p, b));
    }
  }
}
