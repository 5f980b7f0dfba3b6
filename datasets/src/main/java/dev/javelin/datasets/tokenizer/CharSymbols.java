package dev.javelin.datasets.tokenizer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * The starting symbols of a SentencePiece-style BPE word (Llama 2, Mistral, Gemma): one token per
 * character; a character the vocabulary lacks becomes its UTF-8 bytes as {@code <0xNN>} tokens with
 * {@code byte_fallback}, else {@code unk_token} (a run of them one unk with {@code fuse_unk}), else
 * nothing, as Hugging Face's BPE does.
 */
final class CharSymbols {
  private final Map<String, Integer> vocab;
  private final int[] bmpIds = new int[Character.MAX_VALUE + 1]; // char → id of its token, or -1
  private final int[] byteIds = new int[256]; // byte → id of <0xNN>, or -1
  private final boolean byteFallback;
  private final int unkId;
  private final boolean fuseUnk;

  CharSymbols(Map<String, Integer> vocab, boolean byteFallback, int unkId, boolean fuseUnk) {
    this.vocab = vocab;
    this.byteFallback = byteFallback;
    this.unkId = unkId;
    this.fuseUnk = fuseUnk;
    Arrays.fill(bmpIds, -1);
    vocab.forEach(
        (token, id) -> {
          if (token.length() == 1) {
            bmpIds[token.charAt(0)] = id;
          }
        });
    for (int b = 0; b < 256; b++) {
      byteIds[b] = vocab.getOrDefault(byteToken(b), -1);
    }
  }

  /** The byte-fallback token of byte {@code b}, e.g. {@code <0x0A>}. */
  static String byteToken(int b) {
    return String.format(Locale.ROOT, "<0x%02X>", b);
  }

  /** The ids {@code word} starts from, before any merge. */
  int[] of(String word) {
    IntList out = new IntList();
    int pendingUnk = -1; // unk waiting to be written, so that a run of unknown chars can fuse
    for (int i = 0; i < word.length(); ) {
      int cp = word.codePointAt(i);
      int next = i + Character.charCount(cp);
      int id =
          cp <= Character.MAX_VALUE ? bmpIds[cp] : vocab.getOrDefault(word.substring(i, next), -1);
      if (id >= 0) {
        if (pendingUnk >= 0) {
          out.add(pendingUnk);
          pendingUnk = -1;
        }
        out.add(id);
      } else if (!(byteFallback && addBytes(word.substring(i, next), out)) && unkId >= 0) {
        // Hugging Face writes a pending unk only when a known char or the end follows.
        if (pendingUnk >= 0 && !fuseUnk) {
          out.add(pendingUnk);
        }
        pendingUnk = unkId;
      }
      i = next;
    }
    if (pendingUnk >= 0) {
      out.add(pendingUnk);
    }
    return out.toArray();
  }

  /**
   * Appends the {@code <0xNN>} ids of {@code ch}'s UTF-8 bytes; false (nothing added) if one is
   * missing.
   */
  private boolean addBytes(String ch, IntList out) {
    byte[] utf8 = ch.getBytes(StandardCharsets.UTF_8);
    for (byte b : utf8) {
      if (byteIds[b & 0xFF] < 0) {
        return false;
      }
    }
    for (byte b : utf8) {
      out.add(byteIds[b & 0xFF]);
    }
    return true;
  }
}
