package dev.javelin.sampler.sampling;

import dev.javelin.sampler.SamplingParams;
import java.util.random.RandomGenerator;

/**
 * Picks the next token from one row of logits z (V). With temperature τ the distribution is π =
 * softmax(z / τ); top-k, top-p and min-p then truncate it and one uniform draw from {@code rng}
 * picks a token from the renormalised rest. Greedy takes arg-max z (first on ties) and draws
 * nothing. The reported log-prob is always log π[token] of the untruncated distribution (τ = 1 for
 * greedy), the quantity the trainer recomputes, so importance ratios compare like with like.
 */
public final class TokenSampler {
  private TokenSampler() {}

  /**
   * @param logits flat logits holding the row at {@code offset}
   * @param vocab V, the row length
   * @param rng the request's own generator: exactly one draw per sampled token
   */
  public static TokenChoice choose(
      float[] logits, int offset, int vocab, SamplingParams params, RandomGenerator rng) {
    double tau = params.greedy() ? 1.0 : params.temperature();
    double max = Double.NEGATIVE_INFINITY;
    int argmax = 0;
    for (int i = 0; i < vocab; i++) {
      if (logits[offset + i] > max) {
        max = logits[offset + i];
        argmax = i;
      }
    }
    double[] probs = new double[vocab]; // unnormalised exp((z - max) / τ)
    double sum = 0;
    for (int i = 0; i < vocab; i++) {
      probs[i] = Math.exp((logits[offset + i] - max) / tau);
      sum += probs[i];
    }
    double logZ = Math.log(sum);
    int token = params.greedy() ? argmax : draw(probs, params, rng);
    float logProb = (float) ((logits[offset + token] - max) / tau - logZ);
    return new TokenChoice(token, logProb);
  }

  private static int draw(double[] probs, SamplingParams params, RandomGenerator rng) {
    LogitFilters.topK(probs, params.topK());
    LogitFilters.topP(probs, params.topP());
    LogitFilters.minP(probs, params.minP());
    double mass = 0;
    int last = 0;
    for (int i = 0; i < probs.length; i++) {
      mass += probs[i];
      if (probs[i] > 0) {
        last = i;
      }
    }
    double u = rng.nextDouble() * mass;
    double cumulative = 0;
    for (int i = 0; i < probs.length; i++) {
      cumulative += probs[i];
      if (u < cumulative && probs[i] > 0) {
        return i;
      }
    }
    return last; // u rounded onto the total: the last kept token
  }
}
