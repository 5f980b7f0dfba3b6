package dev.javelin.rewards.math;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where a response states its final answer. {@link Mode#VERL} reads only the last box, as VeRL's
 * {@code math_reward} does. {@link Mode#MATH_VERIFY} falls back, in this order, to the text after
 * the last "answer is" / "answer:" (up to the end of its sentence; its last math if it has any),
 * then to the last display or inline math on the final non-blank line ({@code $$x = 3$$}, {@code so
 * the area is $16\pi$.}). Only the last {@link #TAIL} characters are searched for fallbacks: linear
 * in the response and cheap on a 10 MB one.
 */
public final class AnswerExtractor {

  /** The extraction modes, by their kwarg spelling. */
  public enum Mode {
    /** The last box only. */
    VERL("verl"),
    /** The last box, then "answer is ...", then the final line's last math. */
    MATH_VERIFY("math_verify");

    private final String key;

    Mode(String key) {
      this.key = key;
    }

    /** The kwarg value naming this mode. */
    public String key() {
      return key;
    }

    /** The mode named {@code key}. */
    public static Mode of(String key) {
      for (Mode m : values()) {
        if (m.key.equals(key)) {
          return m;
        }
      }
      throw new IllegalArgumentException("unknown extraction mode " + key);
    }
  }

  /** Characters at the end of a response searched by the fallbacks. */
  static final int TAIL = 4096;

  /** Longest stated answer taken after "answer is". */
  private static final int MAX_STATED = 300;

  private AnswerExtractor() {}

  /** The predicted answer of {@code response}, or empty when it states none. */
  public static Optional<String> extract(String response, Mode mode) {
    Optional<String> box = Boxed.lastContent(response);
    if (box.isPresent() || mode == Mode.VERL) {
      return box;
    }
    String tail =
        response.length() > TAIL ? response.substring(response.length() - TAIL) : response;
    Optional<String> stated = answerIs(tail);
    return stated.isPresent() ? stated : finalLineMath(tail);
  }

  /** The text after the last "answer is" or "answer:", up to the end of its sentence. */
  static Optional<String> answerIs(String tail) {
    String lower = tail.toLowerCase(Locale.ROOT);
    int is = lower.lastIndexOf("answer is");
    int colon = lower.lastIndexOf("answer:");
    int at = Math.max(is < 0 ? -1 : is + "answer is".length(), colon < 0 ? -1 : colon + 7);
    if (at < 0) {
      return Optional.empty();
    }
    String rest = tail.substring(at, Math.min(tail.length(), at + MAX_STATED));
    String sentence = sentence(rest).strip();
    while (sentence.startsWith(":")) {
      sentence = sentence.substring(1).strip();
    }
    Optional<String> math = lastMath(sentence);
    if (math.isPresent()) {
      return math;
    }
    return sentence.isEmpty() ? Optional.empty() : Optional.of(sentence);
  }

  /** Up to the first newline, or a period followed by a space or the end, outside math. */
  private static String sentence(String s) {
    boolean inMath = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '$' && (i == 0 || s.charAt(i - 1) != '\\')) {
        inMath = !inMath;
      } else if (c == '\n' && !inMath) {
        return s.substring(0, i);
      } else if (c == '.'
          && !inMath
          && (i + 1 == s.length() || Character.isWhitespace(s.charAt(i + 1)))) {
        return s.substring(0, i);
      }
    }
    return s;
  }

  /** The last math on the final non-blank line; a display block may span lines ($$, \[ \]). */
  static Optional<String> finalLineMath(String tail) {
    String t = tail.stripTrailing();
    int lineStart = t.lastIndexOf('\n') + 1;
    String line = t.substring(lineStart).strip();
    if (line.equals("$$") || line.equals("\\]")) {
      String open = line.equals("$$") ? "$$" : "\\[";
      int from = t.lastIndexOf(open, lineStart - 1);
      return from < 0 ? Optional.empty() : lastMath(t.substring(from));
    }
    return lastMath(line);
  }

  /**
   * The content of the last complete {@code $..$}, {@code $$..$$}, {@code \(..\)} or {@code
   * \[..\]}.
   */
  static Optional<String> lastMath(String s) {
    String t =
        s.replace("\\$", "\u0001")
            .replace("$$", "$")
            .replace("\\[", "$")
            .replace("\\]", "$")
            .replace("\\(", "$")
            .replace("\\)", "$");
    List<Integer> at = new ArrayList<>();
    for (int i = t.indexOf('$'); i >= 0; i = t.indexOf('$', i + 1)) {
      at.add(i);
    }
    if (at.size() < 2) {
      return Optional.empty();
    }
    int pair = at.size() / 2 - 1;
    String content =
        t.substring(at.get(2 * pair) + 1, at.get(2 * pair + 1)).replace("\u0001", "\\$").strip();
    return content.isEmpty() ? Optional.empty() : Optional.of(content);
  }
}
