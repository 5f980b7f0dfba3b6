package dev.javelin.grpo.entropy;

/**
 * Entropy of the sampling distribution from logits at temperature τ: with z = logits/τ and p =
 * softmax(z), H = logsumexp(z) − Σ_v p_v z_v (VeRL's {@code entropy_from_logits} after it divides
 * the logits by the temperature). A host-side reference for the device kernel, plus its VJP.
 */
public final class TokenEntropy {
  private TokenEntropy() {}

  /**
   * Per-token entropy.
   *
   * @param logits (N, V) row-major
   * @return (N,)
   */
  public static double[] fromLogits(float[] logits, int tokens, int vocab, double temperature) {
    check(logits, tokens, vocab, temperature);
    double[] h = new double[tokens];
    double[] z = new double[vocab];
    for (int n = 0; n < tokens; n++) {
      double lse = scaledLogSumExp(logits, n, vocab, temperature, z);
      double expected = expectedZ(z, lse);
      h[n] = lse - expected;
    }
    return h;
  }

  /**
   * ∂ℒ/∂logits given ∂ℒ/∂H: ∂H/∂logit_v = −p_v (z_v − Σ_u p_u z_u) / τ.
   *
   * @param dEntropy (N,)
   * @return (N, V)
   */
  public static double[] vjp(
      float[] logits, int tokens, int vocab, double temperature, double[] dEntropy) {
    check(logits, tokens, vocab, temperature);
    if (dEntropy.length != tokens) {
      throw new IllegalArgumentException("dEntropy must have " + tokens + " entries");
    }
    double[] out = new double[tokens * vocab]; // (N, V)
    double[] z = new double[vocab];
    for (int n = 0; n < tokens; n++) {
      double lse = scaledLogSumExp(logits, n, vocab, temperature, z);
      double expected = expectedZ(z, lse);
      for (int v = 0; v < vocab; v++) {
        double p = Math.exp(z[v] - lse);
        out[n * vocab + v] = -dEntropy[n] * p * (z[v] - expected) / temperature;
      }
    }
    return out;
  }

  /** Σ_v p_v z_v with p = softmax(z) = exp(z − lse). */
  private static double expectedZ(double[] z, double lse) {
    double expected = 0.0;
    for (int v = 0; v < z.length; v++) {
      expected += Math.exp(z[v] - lse) * z[v];
    }
    return expected;
  }

  private static double scaledLogSumExp(
      float[] logits, int n, int vocab, double temperature, double[] z) {
    double max = Double.NEGATIVE_INFINITY;
    for (int v = 0; v < vocab; v++) {
      z[v] = logits[n * vocab + v] / temperature;
      max = Math.max(max, z[v]);
    }
    double sum = 0.0;
    for (int v = 0; v < vocab; v++) {
      sum += Math.exp(z[v] - max);
    }
    return max + Math.log(sum);
  }

  private static void check(float[] logits, int tokens, int vocab, double temperature) {
    if (tokens < 0 || vocab < 1 || logits.length != (long) tokens * vocab) {
      throw new IllegalArgumentException(
          "logits must have tokens*vocab = "
              + tokens
              + "*"
              + vocab
              + " entries, got "
              + logits.length);
    }
    if (!(temperature > 0)) {
      throw new IllegalArgumentException("temperature must be > 0, got " + temperature);
    }
  }
}
