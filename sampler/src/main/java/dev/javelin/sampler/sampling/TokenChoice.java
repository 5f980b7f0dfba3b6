package dev.javelin.sampler.sampling;

/**
 * A chosen token and its log-probability under the unfiltered distribution at the sampling
 * temperature, {@code log softmax(z / τ)[token]}.
 */
public record TokenChoice(int token, float logProb) {}
