package dev.javelin.datasets.tokenizer;

import static dev.javelin.datasets.tokenizer.SplitPattern.NEWLINE;
import static dev.javelin.datasets.tokenizer.SplitPattern.NUMBER;
import static dev.javelin.datasets.tokenizer.SplitPattern.SPACE;
import static dev.javelin.datasets.tokenizer.SplitPattern.classOf;

/**
 * GPT-2's pre-tokenizer regex, the one Hugging Face {@code ByteLevel} runs when {@code use_regex}
 * is set, as a hand-written scanner:
 *
 * <pre>
 * 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
 * </pre>
 *
 * With {@code isolateDigits}, every {@code \p{N}} char is first cut out as a piece of its own and
 * the regex runs on the text between them: Hugging Face's {@code Digits(individual_digits=true)}
 * before ByteLevel (SmolLM, StarCoder), and llama.cpp's {@code smollm} pre-tokenizer.
 */
final class Gpt2Split implements Splitter {
  private final boolean isolateDigits;

  Gpt2Split(boolean isolateDigits) {
    this.isolateDigits = isolateDigits;
  }

  @Override
  public int end(String s, int pos) {
    if (!isolateDigits) {
      return end(s, pos, s.length());
    }
    int c = s.codePointAt(pos);
    if (classOf(c) == NUMBER) {
      return pos + Character.charCount(c);
    }
    int limit = pos;
    while (limit < s.length()) {
      int d = s.codePointAt(limit);
      if (classOf(d) == NUMBER) {
        break;
      }
      limit += Character.charCount(d);
    }
    return end(s, pos, limit);
  }

  /** The regex's match at {@code pos}, on the text up to {@code limit}. */
  private static int end(String s, int pos, int limit) {
    int c = s.codePointAt(pos);
    int next = pos + Character.charCount(c);
    if (c == '\'' && next < limit) {
      int contraction = contractionEnd(s, next, limit);
      if (contraction > 0) {
        return contraction;
      }
    }
    byte cls = group(c);
    if (c == ' ' && next < limit) {
      byte after = group(s.codePointAt(next));
      if (after != SPACE) {
        return runEnd(s, next, limit, after);
      }
    }
    if (cls != SPACE) {
      return runEnd(s, next, limit, cls);
    }
    int end = runEnd(s, next, limit, SPACE);
    if (end == limit || end == next) {
      return end;
    }
    // \s+(?!\S) gives back the last whitespace char, which then prefixes the next piece.
    return end - Character.charCount(s.codePointBefore(end));
  }

  /** Letters, numbers, whitespace (CR and LF included) and everything else. */
  private static byte group(int c) {
    byte cls = classOf(c);
    return cls == NEWLINE ? SPACE : cls;
  }

  private static int runEnd(String s, int from, int limit, byte cls) {
    int end = from;
    while (end < limit) {
      int c = s.codePointAt(end);
      if (group(c) != cls) {
        break;
      }
      end += Character.charCount(c);
    }
    return end;
  }

  /** GPT-2's contractions are case-sensitive, unlike Qwen's and Llama 3's. */
  private static int contractionEnd(String s, int at, int limit) {
    char a = s.charAt(at);
    if (a == 's' || a == 't' || a == 'm' || a == 'd') {
      return at + 1;
    }
    if (at + 1 < limit) {
      char b = s.charAt(at + 1);
      if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) {
        return at + 2;
      }
    }
    return -1;
  }
}
