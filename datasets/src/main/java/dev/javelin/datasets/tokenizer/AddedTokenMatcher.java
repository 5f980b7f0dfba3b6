package dev.javelin.datasets.tokenizer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds added tokens in text: leftmost occurrence first and, among those starting there, the
 * longest, like Hugging Face's Aho-Corasick {@code LeftmostLongest} matcher. Candidates are
 * bucketed by first char, which is enough because real added tokens share few first chars ({@code
 * <}).
 */
final class AddedTokenMatcher {
  private final Map<Character, AddedToken[]> byFirstChar = new HashMap<>();
  private final boolean[] isFirstChar =
      new boolean[Character.MAX_VALUE + 1]; // fast reject per char

  AddedTokenMatcher(List<AddedToken> tokens) {
    Map<Character, List<AddedToken>> buckets = new HashMap<>();
    for (AddedToken token : tokens) {
      buckets.computeIfAbsent(token.content().charAt(0), c -> new ArrayList<>()).add(token);
      isFirstChar[token.content().charAt(0)] = true;
    }
    buckets.forEach(
        (first, list) -> {
          list.sort(Comparator.comparingInt((AddedToken t) -> t.content().length()).reversed());
          byFirstChar.put(first, list.toArray(AddedToken[]::new));
        });
  }

  /** Receives the pieces of a split: plain text runs and added tokens, in order. */
  interface Pieces {
    void text(String text, int from, int to);

    void token(AddedToken token);
  }

  /** Splits {@code text} into plain runs and added tokens. */
  void split(String text, Pieces pieces) {
    int plainFrom = 0;
    int i = 0;
    while (i < text.length()) {
      AddedToken match = matchAt(text, i);
      if (match == null) {
        i++;
        continue;
      }
      if (i > plainFrom) {
        pieces.text(text, plainFrom, i);
      }
      pieces.token(match);
      i += match.content().length();
      plainFrom = i;
    }
    if (plainFrom < text.length()) {
      pieces.text(text, plainFrom, text.length());
    }
  }

  private AddedToken matchAt(String text, int at) {
    if (!isFirstChar[text.charAt(at)]) {
      return null;
    }
    AddedToken[] candidates = byFirstChar.get(text.charAt(at));
    if (candidates != null) {
      for (AddedToken candidate : candidates) {
        if (text.startsWith(candidate.content(), at)) {
          return candidate;
        }
      }
    }
    return null;
  }
}
