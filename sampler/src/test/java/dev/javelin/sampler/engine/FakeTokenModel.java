package dev.javelin.sampler.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

/**
 * A deterministic stand-in model whose next-token logits are a hash of the row's whole prefix, so
 * any mistake in what the batcher feeds (wrong token, position or row) changes the output. It
 * checks that every row is fed contiguously, restarting only at position 0.
 */
final class FakeTokenModel implements TokenModel {
  static final int VOCAB = 7;
  private int rows;
  int compactions;
  int rowPrefills;
  private final int capacity;
  private final List<List<Integer>> prefixes = new ArrayList<>();
  int stepCalls;
  int maxActive;

  FakeTokenModel(int rows, int capacity) {
    this.rows = rows;
    this.capacity = capacity;
    for (int r = 0; r < rows; r++) {
      prefixes.add(new ArrayList<>());
    }
  }

  @Override
  public int rows() {
    return rows;
  }

  @Override
  public int capacity() {
    return capacity;
  }

  @Override
  public int vocab() {
    return VOCAB;
  }

  @Override
  public float[] prefill(List<int[]> prompts) {
    assertEquals(rows, prompts.size());
    float[] out = new float[rows * VOCAB];
    for (int r = 0; r < rows; r++) {
      List<Integer> p = prefixes.get(r);
      p.clear();
      for (int t : prompts.get(r)) {
        p.add(t);
      }
      fill(out, r, p);
    }
    return out;
  }

  @Override
  public float[] prefillRows(int[] targets, List<int[]> prompts) {
    assertEquals(targets.length, prompts.size());
    rowPrefills++;
    float[] out = new float[targets.length * VOCAB];
    for (int j = 0; j < targets.length; j++) {
      List<Integer> p = prefixes.get(targets[j]);
      p.clear();
      for (int t : prompts.get(j)) {
        p.add(t);
      }
      fill(out, j, p);
    }
    return out;
  }

  @Override
  public float[] step(int[] tokens, int[] positions, boolean[] active) {
    stepCalls++;
    assertEquals(rows, tokens.length, "one token per current row");
    float[] out = new float[rows * VOCAB];
    int n = 0;
    for (int r = 0; r < rows; r++) {
      if (!active[r]) {
        continue;
      }
      n++;
      List<Integer> p = prefixes.get(r);
      if (positions[r] == 0) {
        p.clear();
      }
      assertEquals(p.size(), positions[r], "row " + r + " must be fed contiguously");
      p.add(tokens[r]);
      fill(out, r, p);
    }
    maxActive = Math.max(maxActive, n);
    return out;
  }

  @Override
  public void compact(int[] keep) {
    List<List<Integer>> next = new ArrayList<>();
    for (int r : keep) {
      next.add(new ArrayList<>(prefixes.get(r)));
    }
    prefixes.clear();
    prefixes.addAll(next);
    rows = keep.length;
    compactions++;
  }

  /** Logits of a prefix: a hash of every (position, token), spread over the vocabulary. */
  static void fill(float[] out, int row, List<Integer> prefix) {
    long h = 1125899906842597L;
    for (int i = 0; i < prefix.size(); i++) {
      h = 31 * h + prefix.get(i) * 1_000_003L + i;
    }
    for (int j = 0; j < VOCAB; j++) {
      long x = h * 6364136223846793005L + j * 1442695040888963407L;
      out[row * VOCAB + j] = (float) ((x >>> 40) % 1000) / 250f;
    }
  }
}
