package dev.javelin.rewards.builtin;

import dev.javelin.rewards.RewardFunction;
import dev.javelin.rewards.RewardFunctionProvider;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardKwargs;
import dev.javelin.rewards.RewardResult;
import dev.javelin.rewards.math.Boxed;
import dev.javelin.rewards.math.MathEquivalence;
import dev.javelin.rewards.math.MinervaNormalizer;
import java.util.Map;

/**
 * DAPO math reward after VeRL's {@code math_dapo.compute_score}: in the last 300 characters take
 * the last {@code Answer: ...} line (case-insensitive), normalise it Minerva-style and compare with
 * the normalised ground truth; +1 if right, −1 otherwise. Without an answer line (as in VeRL 0.9),
 * or always with {@code strict_box_verify}, the last {@code \boxed{}} in the final 100 characters
 * must equal the ground truth verbatim. With {@code equivalence} (default on, ignored in strict
 * mode) a mathematically equal answer ({@link MathEquivalence}) also counts.
 *
 * @param strictBoxVerify VeRL's strict boxed mode
 * @param equivalence also accept mathematically equal answers
 */
public record MathDapoReward(boolean strictBoxVerify, boolean equivalence)
    implements RewardFunction {

  private static final String INVALID = "[INVALID]";

  @Override
  public String name() {
    return "math_dapo";
  }

  @Override
  public RewardResult score(RewardInput in) {
    String tail = in.responseTail(300);
    String raw = strictBoxVerify ? null : lastAnswerLine(tail);
    if (raw == null) {
      // VeRL ≥ 0.9: with no "Answer:" line (or in strict mode) the last box of the final 100
      // characters must equal the ground truth verbatim.
      String last = tail.length() > 100 ? tail.substring(tail.length() - 100) : tail;
      String box = Boxed.lastContent(last).orElse(null);
      boolean ok =
          box != null
              && (box.equals(in.groundTruth())
                  || (equivalence
                      && !strictBoxVerify
                      && MathEquivalence.equivalent(box, in.groundTruth())));
      return new RewardResult(
          ok ? 1.0 : -1.0, Extras.of(ok, box == null ? INVALID : box, box != null));
    }
    String pred = MinervaNormalizer.normalize(raw);
    String gt = in.groundTruth();
    // A ground truth this long is not a final answer: compare it verbatim, do not normalise 10 MB.
    String gold =
        gt.length() > MathEquivalence.MAX_ANSWER_CHARS ? gt : MinervaNormalizer.normalize(gt);
    boolean ok = pred.equals(gold) || (equivalence && MathEquivalence.equivalent(raw.strip(), gt));
    return new RewardResult(ok ? 1.0 : -1.0, Extras.of(ok, pred, true));
  }

  /**
   * The capture of the last non-overlapping match of {@code (?i)Answer\s*:\s*([^\n]+)}, scanned by
   * hand; null when there is none.
   */
  static String lastAnswerLine(String s) {
    String found = null;
    int i = 0;
    while (i + 6 <= s.length()) {
      if (!s.regionMatches(true, i, "answer", 0, 6)) {
        i++;
        continue;
      }
      int j = i + 6;
      while (j < s.length() && Character.isWhitespace(s.charAt(j))) {
        j++;
      }
      if (j >= s.length() || s.charAt(j) != ':') {
        i++;
        continue;
      }
      j++;
      while (j < s.length() && Character.isWhitespace(s.charAt(j))) {
        j++;
      }
      int end = j;
      while (end < s.length() && s.charAt(end) != '\n') {
        end++;
      }
      if (end > j) {
        found = s.substring(j, end);
        i = end;
      } else {
        i++;
      }
    }
    return found;
  }

  /**
   * Registers {@code math_dapo}; kwargs {@code strict_box_verify} (false), {@code equivalence}
   * (true).
   */
  public static final class Provider implements RewardFunctionProvider {
    @Override
    public String name() {
      return "math_dapo";
    }

    @Override
    public RewardFunction create(Map<String, Object> kwargs) {
      RewardKwargs kw = RewardKwargs.of(name(), kwargs, "strict_box_verify", "equivalence");
      return new MathDapoReward(
          kw.getBoolean("strict_box_verify", false), kw.getBoolean("equivalence", true));
    }
  }
}
