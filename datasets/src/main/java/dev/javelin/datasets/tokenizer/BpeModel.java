package dev.javelin.datasets.tokenizer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * BPE over one pre-tokenized word. Byte-level (GPT-2 style): the word's UTF-8 bytes start as
 * single-byte tokens; SentencePiece style: its characters do, see {@link CharSymbols}. Then the
 * adjacent pair of lowest merge rank merges first (leftmost on ties) until no pair merges, the
 * greedy rule of Sennrich et al. and Hugging Face {@code BPE}. Results of frequent words are
 * cached.
 */
final class BpeModel {
  /** Like Hugging Face's BPE cache: words are cached until it holds this many, then no more. */
  private static final int CACHE_CAPACITY = 10_000;

  private final Map<String, Integer> vocab;
  private final String[] tokens; // id → token, in the byte-level alphabet; null for gaps
  private final int[] byteIds; // byte → id of its single-byte token
  private final PairRanks merges;
  private final Options options;
  private final CharSymbols chars; // null for byte-level models
  private final Map<String, int[]> cache = new ConcurrentHashMap<>();

  /**
   * The switches of a {@code tokenizer.json} BPE model section.
   *
   * @param ignoreMerges Llama 3's {@code ignore_merges}: a word that is itself in the vocabulary is
   *     one token even when the merges would split it
   * @param unkId id of {@code unk_token}, or -1 when there is none
   * @param fuseUnk whether a run of unknown bytes becomes one unk token
   * @param byteLevel whether tokens are in the byte-level alphabet (else SentencePiece style)
   * @param byteFallback SentencePiece style only: unknown chars become {@code <0xNN>} tokens
   */
  record Options(
      boolean ignoreMerges, int unkId, boolean fuseUnk, boolean byteLevel, boolean byteFallback) {}

  /**
   * @param vocab token (byte-level alphabet) → id
   * @param tokens id → token
   * @param merges the merge table
   * @param options the switches of the model section
   */
  BpeModel(Map<String, Integer> vocab, String[] tokens, PairRanks merges, Options options) {
    this.vocab = vocab;
    this.tokens = tokens;
    this.merges = merges;
    this.options = options;
    this.chars =
        options.byteLevel()
            ? null
            : new CharSymbols(vocab, options.byteFallback(), options.unkId(), options.fuseUnk());
    this.byteIds = new int[256];
    for (int b = 0; b < 256; b++) {
      Integer id = vocab.get(String.valueOf(ByteLevel.charOf(b)));
      byteIds[b] = id == null ? -1 : id; // SmolLM2 lacks 21 bytes that never occur in its data
    }
  }

  /** Whether tokens are in the byte-level alphabet rather than plain text with {@code <0xNN>}. */
  boolean byteLevel() {
    return chars == null;
  }

  /**
   * Token of {@code id} (in the byte-level alphabet when {@link #byteLevel}), or null when the
   * model has no such id.
   */
  String token(int id) {
    return id >= 0 && id < tokens.length ? tokens[id] : null;
  }

  /** Id of the single-byte token for byte {@code b} (0..255), or -1 when the vocab lacks it. */
  int byteId(int b) {
    return byteIds[b];
  }

  /** Appends the ids of {@code word} (one pre-tokenizer piece) to {@code out}. */
  void encodeWord(String word, IntList out) {
    int[] cached = cache.get(word);
    if (cached == null) {
      cached = merge(word);
      if (cache.size() < CACHE_CAPACITY && word.length() <= CACHE_MAX_WORD_CHARS) {
        cache.put(word, cached);
      }
    }
    out.addAll(cached);
  }

  /** Words up to this many bytes merge by rescanning (fast when short); longer ones use a heap. */
  private static final int QUADRATIC_MAX = 48;

  private static final int CACHE_MAX_WORD_CHARS = 256;

  int[] merge(String word) {
    if (chars != null) {
      Integer whole = options.ignoreMerges() ? vocab.get(word) : null;
      if (whole != null) {
        return new int[] {whole};
      }
      int[] symbols = chars.of(word);
      return symbols.length <= QUADRATIC_MAX ? mergeByRescan(symbols) : mergeByHeap(symbols);
    }
    byte[] utf8 = word.getBytes(StandardCharsets.UTF_8);
    if (options.ignoreMerges()) {
      Integer whole = vocab.get(ByteLevel.toAlphabet(utf8, 0, utf8.length));
      if (whole != null) {
        return new int[] {whole};
      }
    }
    int[] symbols = initialSymbols(utf8);
    return symbols.length <= QUADRATIC_MAX ? mergeByRescan(symbols) : mergeByHeap(symbols);
  }

  /**
   * One id per byte. A byte whose token the vocabulary lacks becomes unk_token (a run of them one
   * unk with fuse_unk) or, without an unk_token, is dropped: what Hugging Face's BPE does.
   */
  private int[] initialSymbols(byte[] utf8) {
    int[] symbols = new int[utf8.length]; // (n) ids, one per byte before merging
    int n = 0;
    boolean lastUnk = false;
    for (byte b : utf8) {
      int id = byteIds[b & 0xFF];
      if (id >= 0) {
        symbols[n++] = id;
        lastUnk = false;
      } else if (options.unkId() >= 0 && !(options.fuseUnk() && lastUnk)) {
        symbols[n++] = options.unkId();
        lastUnk = true;
      }
    }
    return n == symbols.length ? symbols : Arrays.copyOf(symbols, n);
  }

  /** O(n²): each round scans all pairs for the lowest rank; no allocation, best for short words. */
  int[] mergeByRescan(int[] symbols) {
    int n = symbols.length;
    while (n > 1) {
      int bestRank = Integer.MAX_VALUE;
      int bestAt = -1;
      for (int i = 0; i + 1 < n; i++) {
        int rank = merges.rank(symbols[i], symbols[i + 1]);
        if (rank >= 0 && rank < bestRank) {
          bestRank = rank;
          bestAt = i;
        }
      }
      if (bestAt < 0) {
        break;
      }
      symbols[bestAt] = merges.merged(bestRank);
      System.arraycopy(symbols, bestAt + 2, symbols, bestAt + 1, n - bestAt - 2);
      n--;
    }
    return Arrays.copyOf(symbols, n);
  }

  /**
   * O(n log n): candidate pairs in a min-heap keyed (rank, position), symbols in a linked list; a
   * popped pair whose symbols changed since it was pushed is stale and skipped. Same order as the
   * rescan (lowest rank, then leftmost), so long inputs such as a 100 kB run of punctuation stay
   * fast.
   */
  int[] mergeByHeap(int[] symbols) {
    int n = symbols.length;
    int[] next = new int[n]; // (n) index of the next live symbol, or n
    int[] prev = new int[n]; // (n) index of the previous live symbol, or -1
    for (int i = 0; i < n; i++) {
      next[i] = i + 1;
      prev[i] = i - 1;
    }
    LongMinHeap heap = new LongMinHeap(n);
    for (int i = 0; i + 1 < n; i++) {
      push(heap, symbols, i, i + 1);
    }
    while (!heap.isEmpty()) {
      long top = heap.pop();
      int rank = (int) (top >>> 32);
      int i = (int) top;
      int j = next[i];
      if (prev[i] == -2 || j >= n || merges.rank(symbols[i], symbols[j]) != rank) {
        continue; // stale: i was merged away, or its right neighbour changed
      }
      symbols[i] = merges.merged(rank);
      next[i] = next[j];
      if (next[j] < n) {
        prev[next[j]] = i;
      }
      prev[j] = -2; // dead
      if (prev[i] >= 0) {
        push(heap, symbols, prev[i], i);
      }
      if (next[i] < n) {
        push(heap, symbols, i, next[i]);
      }
    }
    IntList out = new IntList();
    for (int i = 0; i < n; i = next[i]) {
      out.add(symbols[i]);
    }
    return out.toArray();
  }

  private void push(LongMinHeap heap, int[] symbols, int left, int right) {
    int rank = merges.rank(symbols[left], symbols[right]);
    if (rank >= 0) {
      heap.push(((long) rank << 32) | left);
    }
  }
}
