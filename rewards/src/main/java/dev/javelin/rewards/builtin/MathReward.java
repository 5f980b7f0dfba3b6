package dev.javelin.rewards.builtin;

import dev.javelin.rewards.RewardFunction;
import dev.javelin.rewards.RewardFunctionProvider;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardKwargs;
import dev.javelin.rewards.RewardResult;
import dev.javelin.rewards.math.AnswerExtractor;
import dev.javelin.rewards.math.Boxed;
import dev.javelin.rewards.math.Latex;
import dev.javelin.rewards.math.LatexCleaner;
import dev.javelin.rewards.math.MathEquivalence;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * MATH reward after VeRL's {@code math_reward.compute_score}: the content of the last {@code
 * \boxed{}} / {@code \boxed } / {@code \fbox{}} is compared with the ground truth. Where VeRL
 * compares normalised strings, this uses {@link MathEquivalence}: VeRL's normalisation first, then
 * exact mathematical equivalence (fractions, decimals, surds, π, tuples, intervals, sets, ...).
 *
 * <p>With {@code extraction: math_verify} an answer without a box is looked for in the text too
 * ({@link AnswerExtractor}), and an answer split over several boxes is joined when the ground truth
 * is a list.
 *
 * <p>Ground truth: the answer (e.g. {@code \frac{3}{4}}); a full solution containing a box also
 * works, its last box is used.
 *
 * @param score reward for a correct answer
 * @param formatScore reward for a found but wrong answer
 * @param extraction where the answer is looked for
 */
public record MathReward(double score, double formatScore, AnswerExtractor.Mode extraction)
    implements RewardFunction {

  /** The kwarg choosing {@link #extraction}. */
  public static final String EXTRACTION = "extraction";

  /** VeRL's behaviour: the last box only. */
  public MathReward(double score, double formatScore) {
    this(score, formatScore, AnswerExtractor.Mode.VERL);
  }

  @Override
  public String name() {
    return "math";
  }

  @Override
  public RewardResult score(RewardInput in) {
    Optional<String> pred = AnswerExtractor.extract(in.response(), extraction);
    if (pred.isEmpty()) {
      return new RewardResult(0.0, Extras.of(false, "", false));
    }
    String gold = goldAnswer(in.groundTruth());
    String answer = pred.get();
    boolean ok = MathEquivalence.equivalent(answer, gold);
    if (!ok && extraction == AnswerExtractor.Mode.MATH_VERIFY) {
      Optional<String> joined = joinedBoxes(in.response(), gold);
      if (joined.isPresent() && MathEquivalence.equivalent(joined.get(), gold)) {
        ok = true;
        answer = joined.get();
      }
    }
    return new RewardResult(ok ? score : formatScore, Extras.of(ok, answer, true));
  }

  /** The last k boxes joined by commas, when the ground truth is a list of k ≥ 2 items. */
  private static Optional<String> joinedBoxes(String response, String gold) {
    if (gold.length() > MathEquivalence.MAX_ANSWER_CHARS) {
      return Optional.empty();
    }
    List<String> items = Latex.splitTopLevel(LatexCleaner.clean(gold), ",");
    if (items == null || items.size() < 2 || items.size() > 16) {
      return Optional.empty();
    }
    List<String> boxes = Boxed.lastContents(response, items.size());
    return boxes.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", boxes));
  }

  static String goldAnswer(String gt) {
    return gt.contains("\\boxed") || gt.contains("\\fbox") ? Boxed.lastContent(gt).orElse(gt) : gt;
  }

  /**
   * Registers {@code math}; kwargs {@code score} (1.0), {@code format_score} (0.0), {@code
   * extraction} ({@code verl}, or {@code math_verify}).
   */
  public static final class Provider implements RewardFunctionProvider {
    @Override
    public String name() {
      return "math";
    }

    @Override
    public RewardFunction create(Map<String, Object> kwargs) {
      RewardKwargs kw = RewardKwargs.of(name(), kwargs, "score", "format_score", EXTRACTION);
      String mode =
          kw.getChoice(
              EXTRACTION,
              AnswerExtractor.Mode.VERL.key(),
              AnswerExtractor.Mode.VERL.key(),
              AnswerExtractor.Mode.MATH_VERIFY.key());
      return new MathReward(
          kw.getDouble("score", 1.0),
          kw.getDouble("format_score", 0.0),
          AnswerExtractor.Mode.of(mode));
    }
  }
}
