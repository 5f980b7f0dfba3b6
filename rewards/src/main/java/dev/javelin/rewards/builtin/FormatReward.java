package dev.javelin.rewards.builtin;

import dev.javelin.rewards.RewardFunction;
import dev.javelin.rewards.RewardFunctionProvider;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardKwargs;
import dev.javelin.rewards.RewardResult;
import dev.javelin.rewards.math.Boxed;
import java.util.Map;

/**
 * Format reward: the response is {@code <think>...</think>} (exactly one pair, non-empty) followed
 * by a non-empty answer; optionally the answer must be wrapped in {@code <answer>...</answer>}
 * and/or contain a {@code \boxed{}}. Scores {@code score} when all checks pass, else 0. Combine it
 * with a correctness reward through {@link WeightedReward}.
 *
 * @param thinkTag reasoning tag name ({@code think})
 * @param answerTag answer tag name, or empty for none
 * @param requireBoxed whether the answer must contain a box
 * @param openTagInPrompt whether the prompt already opened the think tag (DeepSeek-R1 style), so
 *     the response starts inside it
 * @param score reward when well-formed
 */
public record FormatReward(
    String thinkTag, String answerTag, boolean requireBoxed, boolean openTagInPrompt, double score)
    implements RewardFunction {

  /** Validates the tag names. */
  public FormatReward {
    if (thinkTag == null || thinkTag.isBlank() || !thinkTag.matches("[A-Za-z_][\\w-]*")) {
      throw new IllegalArgumentException("think_tag must be a tag name, got '" + thinkTag + "'");
    }
    answerTag = answerTag == null ? "" : answerTag;
    if (!answerTag.isEmpty() && !answerTag.matches("[A-Za-z_][\\w-]*")) {
      throw new IllegalArgumentException("answer_tag must be a tag name, got '" + answerTag + "'");
    }
  }

  @Override
  public String name() {
    return "format";
  }

  @Override
  public RewardResult score(RewardInput in) {
    boolean ok = wellFormed(in.response());
    return new RewardResult(ok ? score : 0.0, Map.of("format_ok", ok));
  }

  /** Index-based checks (no copies of the response), so 10 MB outputs cost a few scans. */
  boolean wellFormed(String r) {
    int lo = skipSpace(r, 0, r.length());
    int hi = r.length();
    while (hi > lo && Character.isWhitespace(r.charAt(hi - 1))) {
      hi--;
    }
    String open = "<" + thinkTag + ">";
    String close = "</" + thinkTag + ">";
    int thinkStart = lo;
    if (!openTagInPrompt) {
      if (!r.startsWith(open, lo)) {
        return false;
      }
      thinkStart = lo + open.length();
    }
    int c = r.indexOf(close, thinkStart);
    // Exactly one opening tag (none when the prompt opened it) and exactly one closing tag.
    if (c < 0 || r.indexOf(close, c + 1) >= 0 || r.indexOf(open, thinkStart) >= 0) {
      return false;
    }
    if (skipSpace(r, thinkStart, c) == c) {
      return false; // empty reasoning
    }
    int a = skipSpace(r, c + close.length(), hi);
    if (a == hi) {
      return false;
    }
    if (!answerTag.isEmpty() && !tagged(r, a, hi)) {
      return false;
    }
    return !requireBoxed || Boxed.lastContent(r.substring(a, hi)).isPresent();
  }

  private boolean tagged(String r, int a, int hi) {
    String ao = "<" + answerTag + ">";
    String ac = "</" + answerTag + ">";
    int bodyStart = a + ao.length();
    int bodyEnd = hi - ac.length();
    return bodyEnd >= bodyStart
        && r.startsWith(ao, a)
        && r.startsWith(ac, bodyEnd)
        && r.indexOf(ao, bodyStart) < 0
        && r.indexOf(ac, bodyStart) == bodyEnd
        && skipSpace(r, bodyStart, bodyEnd) < bodyEnd;
  }

  private static int skipSpace(String s, int from, int to) {
    int i = from;
    while (i < to && Character.isWhitespace(s.charAt(i))) {
      i++;
    }
    return i;
  }

  /**
   * Registers {@code format}; kwargs {@code think_tag} (think), {@code answer_tag} (none), {@code
   * require_boxed} (false), {@code open_tag_in_prompt} (false), {@code score} (1.0).
   */
  public static final class Provider implements RewardFunctionProvider {
    @Override
    public String name() {
      return "format";
    }

    @Override
    public RewardFunction create(Map<String, Object> kwargs) {
      RewardKwargs kw =
          RewardKwargs.of(
              name(),
              kwargs,
              "think_tag",
              "answer_tag",
              "require_boxed",
              "open_tag_in_prompt",
              "score");
      return new FormatReward(
          kw.getString("think_tag", "think"),
          kw.getString("answer_tag", ""),
          kw.getBoolean("require_boxed", false),
          kw.getBoolean("open_tag_in_prompt", false),
          kw.getDouble("score", 1.0));
    }
  }
}
