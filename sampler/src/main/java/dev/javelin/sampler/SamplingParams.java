package dev.javelin.sampler;

import java.util.Arrays;

/**
 * How one request is sampled: the logits are divided by {@code temperature}, then filtered by
 * top-k, top-p (nucleus) and min-p before a token is drawn; {@code greedy} takes the arg-max
 * instead (used for validation). Generation stops at any of {@code stopTokenIds} (finish reason
 * STOP; the stop token is kept in the response) or after {@code maxResponseLength} tokens (finish
 * reason LENGTH).
 *
 * @param temperature softmax temperature τ &gt; 0; the sampler's log-probs are taken at τ
 * @param topK keep the k most likely tokens; 0 or -1 disables (VeRL uses -1)
 * @param topP keep the smallest set whose mass reaches p, in (0, 1]; 1 disables
 * @param minP drop tokens whose probability is below minP × max probability, in [0, 1); 0 disables
 * @param maxResponseLength the most tokens generated, &gt; 0
 * @param stopTokenIds token ids that end a response (e.g. EOS); may be empty
 * @param greedy arg-max decoding (filters and temperature are then ignored for the choice)
 */
public record SamplingParams(
    double temperature,
    int topK,
    double topP,
    double minP,
    int maxResponseLength,
    int[] stopTokenIds,
    boolean greedy) {

  public SamplingParams {
    if (!(temperature > 0) || !Double.isFinite(temperature)) {
      throw new IllegalArgumentException("temperature must be finite and > 0, got " + temperature);
    }
    if (topK < -1) {
      throw new IllegalArgumentException("topK must be -1 or 0 (off) or > 0, got " + topK);
    }
    if (!(topP > 0 && topP <= 1)) {
      throw new IllegalArgumentException("topP must be in (0, 1], got " + topP);
    }
    if (!(minP >= 0 && minP < 1)) {
      throw new IllegalArgumentException("minP must be in [0, 1), got " + minP);
    }
    if (maxResponseLength <= 0) {
      throw new IllegalArgumentException("maxResponseLength must be > 0, got " + maxResponseLength);
    }
    if (stopTokenIds == null) {
      throw new IllegalArgumentException("stopTokenIds must not be null (use an empty array)");
    }
    stopTokenIds = stopTokenIds.clone();
    for (int id : stopTokenIds) {
      if (id < 0) {
        throw new IllegalArgumentException("stopTokenIds must be >= 0, got " + id);
      }
    }
  }

  /** Plain sampling at {@code temperature} with no filters. */
  public static SamplingParams sample(double temperature, int maxResponseLength, int... stopIds) {
    return new SamplingParams(temperature, -1, 1.0, 0.0, maxResponseLength, stopIds, false);
  }

  /** Greedy (arg-max) decoding, as used for validation. */
  public static SamplingParams greedy(int maxResponseLength, int... stopIds) {
    return new SamplingParams(1.0, -1, 1.0, 0.0, maxResponseLength, stopIds, true);
  }

  /** A copy with other stop tokens. */
  public SamplingParams withStopTokenIds(int... ids) {
    return new SamplingParams(temperature, topK, topP, minP, maxResponseLength, ids, greedy);
  }

  /** A copy with another length cap. */
  public SamplingParams withMaxResponseLength(int max) {
    return new SamplingParams(temperature, topK, topP, minP, max, stopTokenIds, greedy);
  }

  @Override
  public int[] stopTokenIds() {
    return stopTokenIds.clone();
  }

  /** Whether {@code token} ends a response. */
  public boolean isStop(int token) {
    for (int id : stopTokenIds) {
      if (id == token) {
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SamplingParams p
        && Double.compare(temperature, p.temperature) == 0
        && topK == p.topK
        && Double.compare(topP, p.topP) == 0
        && Double.compare(minP, p.minP) == 0
        && maxResponseLength == p.maxResponseLength
        && Arrays.equals(stopTokenIds, p.stopTokenIds)
        && greedy == p.greedy;
  }

  @Override
  public int hashCode() {
    int h = Double.hashCode(temperature);
    h = 31 * h + topK;
    h = 31 * h + Double.hashCode(topP);
    h = 31 * h + Double.hashCode(minP);
    h = 31 * h + maxResponseLength;
    h = 31 * h + Arrays.hashCode(stopTokenIds);
    return 31 * h + Boolean.hashCode(greedy);
  }

  @Override
  public String toString() {
    return "SamplingParams[temperature="
        + temperature
        + ", topK="
        + topK
        + ", topP="
        + topP
        + ", minP="
        + minP
        + ", maxResponseLength="
        + maxResponseLength
        + ", stopTokenIds="
        + Arrays.toString(stopTokenIds)
        + ", greedy="
        + greedy
        + "]";
  }
}
