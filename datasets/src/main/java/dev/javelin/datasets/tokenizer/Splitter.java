package dev.javelin.datasets.tokenizer;

/**
 * A pre-tokenizer scanner: text is cut into the consecutive pieces it returns, and BPE merges
 * within each piece only.
 */
interface Splitter {
  /** End (exclusive) of the piece that starts at {@code pos < s.length()}. */
  int end(String s, int pos);
}
