package dev.javelin.sampler;

/**
 * Engine settings.
 *
 * @param maxSlots the most sequences decoded at once (vLLM's {@code max_num_seqs}); the batch of B
 *     rows is the smallest power of two holding the requests, capped here
 */
public record SamplerConfig(int maxSlots) {
  public SamplerConfig {
    if (maxSlots < 1) {
      throw new IllegalArgumentException("maxSlots must be >= 1, got " + maxSlots);
    }
  }

  /** 256 slots: one arith-grpo step (32 prompts × 8) in a single batch. */
  public static SamplerConfig defaults() {
    return new SamplerConfig(256);
  }

  /** Rows to use for {@code requests} requests: a power of two, at most {@link #maxSlots}. */
  public int rowsFor(int requests) {
    int rows = requests <= 1 ? 1 : Integer.highestOneBit(requests - 1) << 1;
    return Math.min(rows, maxSlots);
  }
}
