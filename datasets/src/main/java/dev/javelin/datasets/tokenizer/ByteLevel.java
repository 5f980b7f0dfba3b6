package dev.javelin.datasets.tokenizer;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * GPT-2's byte-level alphabet: every byte maps to one printable char, so BPE vocabularies hold only
 * printable strings. Printable Latin-1 bytes map to themselves; the other 68 bytes map to U+0100
 * and up, in byte order (the {@code bytes_to_unicode} table of GPT-2 and Hugging Face {@code
 * ByteLevel}).
 */
final class ByteLevel {
  private static final char[] BYTE_TO_CHAR = new char[256];
  private static final short[] CHAR_TO_BYTE = new short[512];

  static {
    Arrays.fill(CHAR_TO_BYTE, (short) -1);
    int next = 256;
    for (int b = 0; b < 256; b++) {
      boolean printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE);
      char c = (char) (printable ? b : next++);
      BYTE_TO_CHAR[b] = c;
      CHAR_TO_BYTE[c] = (short) b;
    }
  }

  private ByteLevel() {}

  /** The alphabet char standing for byte {@code b} (0..255). */
  static char charOf(int b) {
    return BYTE_TO_CHAR[b & 0xFF];
  }

  /** The byte a char of the alphabet stands for, or -1 when {@code c} is not in the alphabet. */
  static int byteOf(char c) {
    return c < CHAR_TO_BYTE.length ? CHAR_TO_BYTE[c] : -1;
  }

  /** Maps UTF-8 bytes to the alphabet string that vocabularies use as keys. */
  static String toAlphabet(byte[] utf8, int from, int to) {
    char[] out = new char[to - from];
    for (int i = from; i < to; i++) {
      out[i - from] = BYTE_TO_CHAR[utf8[i] & 0xFF];
    }
    return new String(out);
  }

  /**
   * Appends the bytes a token stands for, as Hugging Face's ByteLevel decoder does: the token's
   * chars mapped back to bytes when all are in the alphabet, otherwise (an added token such as
   * {@code <|im_end|>} with chars outside it) the token's own UTF-8.
   */
  static void appendBytes(String token, ByteSink sink) {
    for (int i = 0; i < token.length(); i++) {
      if (byteOf(token.charAt(i)) < 0) {
        byte[] raw = token.getBytes(StandardCharsets.UTF_8);
        sink.write(raw, 0, raw.length);
        return;
      }
    }
    for (int i = 0; i < token.length(); i++) {
      sink.write(byteOf(token.charAt(i)));
    }
  }

  /** A growable byte buffer; decoding turns it into text with U+FFFD for invalid UTF-8. */
  static final class ByteSink {
    private byte[] bytes = new byte[64];
    private int size;

    void write(int b) {
      if (size == bytes.length) {
        bytes = Arrays.copyOf(bytes, size * 2);
      }
      bytes[size++] = (byte) b;
    }

    void write(byte[] src, int from, int length) {
      if (size + length > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + length));
      }
      System.arraycopy(src, from, bytes, size, length);
      size += length;
    }

    int size() {
      return size;
    }

    void clear() {
      size = 0;
    }

    /** Whether the bytes are well-formed UTF-8 (no overlong forms, surrogates or stray bytes). */
    boolean isValidUtf8() {
      try {
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(ByteBuffer.wrap(bytes, 0, size));
        return true;
      } catch (CharacterCodingException e) {
        return false;
      }
    }

    /**
     * Lossy UTF-8 decode: each maximal invalid subsequence becomes one U+FFFD, like Rust/Python.
     */
    String toText() {
      return new String(bytes, 0, size, StandardCharsets.UTF_8);
    }
  }
}
