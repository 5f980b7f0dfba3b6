package dev.javelin.datasets.tokenizer;

import java.util.Arrays;

/**
 * Merge table of a BPE model: (left id, right id) → merge rank, in an open-addressing hash table
 * keyed by the packed pair, so the merge loop does no boxing. Rank r merges into {@link
 * #merged}{@code [r]}.
 */
final class PairRanks {
  private static final long EMPTY = -1L;

  private final long[] keys;
  private final int[] ranks;
  private final int[] merged;
  private final int mask;

  /**
   * @param lefts left id of each merge, by rank
   * @param rights right id of each merge, by rank
   * @param results id of the merged token, by rank
   */
  PairRanks(int[] lefts, int[] rights, int[] results) {
    int capacity = Integer.highestOneBit(Math.max(4, lefts.length * 2 - 1)) << 1;
    keys = new long[capacity];
    ranks = new int[capacity];
    Arrays.fill(keys, EMPTY);
    mask = capacity - 1;
    merged = results.clone();
    for (int rank = 0; rank < lefts.length; rank++) {
      long key = pack(lefts[rank], rights[rank]);
      int slot = slot(key);
      while (keys[slot] != EMPTY && keys[slot] != key) {
        slot = (slot + 1) & mask;
      }
      if (keys[slot] == EMPTY) { // a repeated merge keeps its first (lowest) rank, like HF
        keys[slot] = key;
        ranks[slot] = rank;
      }
    }
  }

  /** Rank of merging {@code left} then {@code right}, or -1 when the pair never merges. */
  int rank(int left, int right) {
    long key = pack(left, right);
    int slot = slot(key);
    while (true) {
      long k = keys[slot];
      if (k == key) {
        return ranks[slot];
      }
      if (k == EMPTY) {
        return -1;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Id of the token that merge {@code rank} produces. */
  int merged(int rank) {
    return merged[rank];
  }

  private int slot(long key) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h >>> 32) & mask;
  }

  private static long pack(int left, int right) {
    return ((long) left << 32) | (right & 0xFFFFFFFFL);
  }
}
