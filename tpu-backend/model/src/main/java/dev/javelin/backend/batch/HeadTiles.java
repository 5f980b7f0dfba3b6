package dev.javelin.backend.batch;

/**
 * How {@link TokenStats#ofHidden} splits an LM head: column chunks of {@code columns} tokens times
 * vocabulary blocks of {@code vocabBlock} entries, each tile its own recomputation segment.
 *
 * <p>{@link #of} aims at tiles of {@code -Djavelin.head.chunk_mb} (default 64) MiB of f32 logits
 * but makes at most {@value #MAX_TILES} of them, since every tile is a copy of the head's ops in
 * the program: at GRPO sizes (64 × 1024 tokens, a 152k vocabulary) 64 MiB tiles would be a thousand
 * copies and a module XLA takes most of an hour to compile. It splits the vocabulary first (blocks
 * of at least {@value #MIN_VOCAB_BLOCK} entries), which reads the hidden states whole and adds up
 * their cotangent, and only then the columns.
 *
 * @param columns tokens per chunk (the column count or more: columns unsplit)
 * @param vocabBlock vocabulary entries per block (the vocabulary or more: unsplit)
 */
public record HeadTiles(int columns, int vocabBlock) {
  static final long TILE_BYTES = Long.getLong("javelin.head.chunk_mb", 64) << 20;
  static final int MAX_TILES = 32;
  static final int MIN_VOCAB_BLOCK = 1024;

  public HeadTiles {
    if (columns < 1 || vocabBlock < 1) {
      throw new IllegalArgumentException(
          "head tiles need positive sizes: " + columns + " x " + vocabBlock);
    }
  }

  /** The tiles for a head over {@code rows} × {@code cols} tokens and {@code vocab} entries. */
  public static HeadTiles of(int rows, int cols, int vocab) {
    int tiles = (int) Math.min(MAX_TILES, count(rows, cols, vocab));
    int blocks = Math.min(tiles, Math.max(1, vocab / MIN_VOCAB_BLOCK));
    int chunks = (int) Math.min(cols, ceil(tiles, blocks));
    return new HeadTiles((int) ceil(cols, chunks), (int) ceil(vocab, blocks));
  }

  /** How many tiles of at most the tile size the head's f32 logits fill (at least 1). */
  static long count(int rows, int cols, int vocab) {
    return Math.max(1, ceil(4L * rows * cols * vocab, TILE_BYTES));
  }

  /** Bytes of f32 logits one tile holds for {@code rows} rows. */
  public long bytes(int rows, int cols, int vocab) {
    return 4L * rows * Math.min(cols, columns) * Math.min(vocab, vocabBlock);
  }

  private static long ceil(long a, long b) {
    return (a + b - 1) / b;
  }
}
