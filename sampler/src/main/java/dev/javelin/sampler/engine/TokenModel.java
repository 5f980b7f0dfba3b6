package dev.javelin.sampler.engine;

import java.util.List;

/**
 * What the batcher needs from a model: a cache of {@link #rows()} independent slots that can be
 * filled all at once or fed one token per row per step. Returned logits are flat (B, V).
 */
public interface TokenModel {

  int rows();

  /** Positions each row's cache holds. */
  int capacity();

  int vocab();

  /** Replaces every row with a prompt and returns the logits after each prompt's last token. */
  float[] prefill(List<int[]> prompts);

  /**
   * Prefills {@code prompts.get(j)} into row {@code rows[j]} (other rows keep their caches) and
   * returns the logits (n, V) after each new prompt.
   */
  float[] prefillRows(int[] rows, List<int[]> prompts);

  /**
   * Feeds {@code tokens[r]} at {@code positions[r]} for the active rows and returns every row's
   * next-token logits (inactive rows: unspecified).
   */
  float[] step(int[] tokens, int[] positions, boolean[] active);

  /** Shrinks the batch: new row i continues old row {@code keep[i]}, with its cache. */
  void compact(int[] keep);
}
