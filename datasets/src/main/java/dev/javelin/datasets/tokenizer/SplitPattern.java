package dev.javelin.datasets.tokenizer;

import java.util.Optional;

/**
 * The pre-tokenizer {@code Split} regex of Qwen2/Qwen3 and Llama 3, as a hand-written scanner.
 *
 * <pre>
 * (?i:'s|'t|'re|'ve|'m|'ll|'d) | [^\r\n\p{L}\p{N}]?\p{L}+ | \p{N}{1,D} | ?[^\s\p{L}\p{N}]+[\r\n]*
 *   | \s*[\r\n]+ | \s+(?!\S) | \s+
 * </pre>
 *
 * with D = 1 (Qwen) or 3 (Llama 3). The regex matches at every position, so the split is a sequence
 * of matches; {@link #end} returns where the match starting at a position ends, following the
 * regex's leftmost-first alternation and greedy backtracking exactly (no possessive or atomic
 * groups occur in these patterns). {@code \s} is Unicode White_Space and {@code \p{L}}/{@code
 * \p{N}} use the JDK's Unicode tables (Unicode 13 in Java 17); the case-insensitive contractions
 * fold ASCII letters and long s, as Oniguruma does.
 */
final class SplitPattern implements Splitter {
  static final String QWEN =
      "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*"
          + "|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
  static final String LLAMA3 = QWEN.replace("|\\p{N}|", "|\\p{N}{1,3}|");

  // Char classes, precomputed for the BMP: the scanner's hot loop is a table lookup.
  static final byte OTHER = 0;
  static final byte LETTER = 1;
  static final byte NUMBER = 2;
  static final byte SPACE = 3; // White_Space other than CR and LF
  static final byte NEWLINE = 4; // CR or LF
  private static final byte[] BMP = new byte[65536];

  static {
    for (int c = 0; c < BMP.length; c++) {
      BMP[c] = classify(c);
    }
  }

  private final int maxDigits;

  private SplitPattern(int maxDigits) {
    this.maxDigits = maxDigits;
  }

  /** The scanner for a tokenizer.json Split regex, if it is one of the supported patterns. */
  static Optional<SplitPattern> forRegex(String regex) {
    if (QWEN.equals(regex)) {
      return Optional.of(new SplitPattern(1));
    }
    if (LLAMA3.equals(regex)) {
      return Optional.of(new SplitPattern(3));
    }
    return Optional.empty();
  }

  @Override
  public int end(String s, int pos) {
    int len = s.length();
    int c = s.codePointAt(pos);
    int next = pos + Character.charCount(c);
    byte cls = classOf(c);
    if (c == '\'' && next < len) {
      int contraction = contractionEnd(s, next);
      if (contraction > 0) {
        return contraction;
      }
    }
    if (cls == LETTER) {
      return letterRunEnd(s, next);
    }
    if (cls != NEWLINE && cls != NUMBER && next < len && classOf(s.codePointAt(next)) == LETTER) {
      return letterRunEnd(s, next);
    }
    if (cls == NUMBER) {
      int end = next;
      for (int n = 1; n < maxDigits && end < len; n++) {
        int d = s.codePointAt(end);
        if (classOf(d) != NUMBER) {
          break;
        }
        end += Character.charCount(d);
      }
      return end;
    }
    if (cls == OTHER) {
      return punctuationEnd(s, next);
    }
    if (c == ' ' && next < len && classOf(s.codePointAt(next)) == OTHER) {
      return punctuationEnd(s, next);
    }
    return whitespaceEnd(s, pos);
  }

  private static int contractionEnd(String s, int at) {
    char a = fold(s.charAt(at));
    if (a == 's' || a == 't' || a == 'm' || a == 'd') {
      return at + 1;
    }
    if (at + 1 < s.length()) {
      char b = fold(s.charAt(at + 1));
      if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) {
        return at + 2;
      }
    }
    return -1;
  }

  /**
   * Simple case folding for the contraction letters: ASCII, plus long s (U+017F), which folds to s.
   */
  private static char fold(char c) {
    if (c == '\u017F') {
      return 's';
    }
    return c < 128 ? Character.toLowerCase(c) : c;
  }

  private static int letterRunEnd(String s, int from) {
    int end = from;
    while (end < s.length()) {
      int c = s.codePointAt(end);
      if (classOf(c) != LETTER) {
        break;
      }
      end += Character.charCount(c);
    }
    return end;
  }

  /** {@code [^\s\p{L}\p{N}]+[\r\n]*} continued from {@code from}, after its first char. */
  private static int punctuationEnd(String s, int from) {
    int end = from;
    while (end < s.length()) {
      int c = s.codePointAt(end);
      if (classOf(c) != OTHER) {
        break;
      }
      end += Character.charCount(c);
    }
    while (end < s.length() && classOf(s.charAt(end)) == NEWLINE) {
      end++;
    }
    return end;
  }

  /** {@code \s*[\r\n]+ | \s+(?!\S) | \s+} at a whitespace char. */
  private static int whitespaceEnd(String s, int pos) {
    int end = pos;
    int lastNewline = -1;
    while (end < s.length()) {
      int c = s.codePointAt(end);
      byte cls = classOf(c);
      if (cls == NEWLINE) {
        lastNewline = end;
      } else if (cls != SPACE) {
        break;
      }
      end += Character.charCount(c);
    }
    if (lastNewline >= 0) {
      return lastNewline + 1; // \s* backtracks to the last CR/LF of the run
    }
    if (end == s.length() || end - pos == 1) {
      return end;
    }
    // \s+(?!\S) gives back the last whitespace char, which then prefixes the next word.
    return end - Character.charCount(s.codePointBefore(end));
  }

  /** The char class of code point {@code c}: one of the constants above. */
  static byte classOf(int c) {
    return c < BMP.length ? BMP[c] : classify(c);
  }

  private static byte classify(int c) {
    if (c == '\r' || c == '\n') {
      return NEWLINE;
    }
    if (isWhiteSpace(c)) {
      return SPACE;
    }
    if (Character.isLetter(c)) {
      return LETTER;
    }
    return switch (Character.getType(c)) {
      case Character.DECIMAL_DIGIT_NUMBER, Character.LETTER_NUMBER, Character.OTHER_NUMBER ->
          NUMBER;
      default -> OTHER;
    };
  }

  /** Unicode's White_Space property, which regex {@code \s} means (unlike Java's isWhitespace). */
  private static boolean isWhiteSpace(int c) {
    return (c >= 0x09 && c <= 0x0D)
        || c == 0x20
        || c == 0x85
        || c == 0xA0
        || c == 0x1680
        || (c >= 0x2000 && c <= 0x200A)
        || c == 0x2028
        || c == 0x2029
        || c == 0x202F
        || c == 0x205F
        || c == 0x3000;
  }
}
