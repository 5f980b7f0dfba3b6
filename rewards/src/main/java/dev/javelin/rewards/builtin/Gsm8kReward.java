package dev.javelin.rewards.builtin;

import dev.javelin.rewards.RewardFunction;
import dev.javelin.rewards.RewardFunctionProvider;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardKwargs;
import dev.javelin.rewards.RewardResult;
import dev.javelin.rewards.math.NumberLiteral;
import dev.javelin.rewards.math.Rational;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * GSM8K reward after VeRL's {@code gsm8k.compute_score} (ReFT, Luong et al. 2024): extract the
 * answer from the last 300 characters of the response, either strictly ({@code #### 42}) or
 * flexibly (the last number), drop commas and {@code $}, and compare with the ground truth. Scores
 * {@code score} when right, {@code format_score} when an answer was found but is wrong, 0 when none
 * was found. Unlike VeRL, {@code 42.0} equals {@code 42} (exact rational comparison).
 *
 * <p>Ground truth: the final number, or a full GSM8K solution ending in {@code #### 42}.
 */
public final class Gsm8kReward implements RewardFunction {

  /** VeRL's extraction methods. */
  public enum Method {
    STRICT,
    FLEXIBLE
  }

  /**
   * Settings.
   *
   * @param method extraction method
   * @param formatScore reward for a found but wrong answer
   * @param score reward for a correct answer
   */
  public record Params(Method method, double formatScore, double score) {
    /** Validates the fields. */
    public Params {
      if (method == null) {
        throw new IllegalArgumentException("method must not be null");
      }
    }
  }

  /** Characters of the response tail searched, as in VeRL. */
  public static final int TAIL_CHARS = 300;

  private final Params params;

  /** A reward with the given settings. */
  public Gsm8kReward(Params params) {
    this.params = params;
  }

  @Override
  public String name() {
    return "gsm8k";
  }

  @Override
  public RewardResult score(RewardInput in) {
    String tail = in.responseTail(TAIL_CHARS);
    String pred =
        params.method() == Method.STRICT ? Gsm8kScan.strict(tail) : Gsm8kScan.flexible(tail);
    boolean correct = pred != null && matches(pred, goldAnswer(in.groundTruth()));
    double s = pred == null ? 0.0 : correct ? params.score() : params.formatScore();
    Map<String, Object> extras = new LinkedHashMap<>();
    extras.put("acc", correct);
    extras.put("pred", pred == null ? "" : pred);
    extras.put("format_ok", pred != null);
    return new RewardResult(s, extras);
  }

  /** The number to compare with: the strict answer of a full solution, else the trimmed text. */
  static String goldAnswer(String gt) {
    if (gt.contains("#### ")) {
      String strict = Gsm8kScan.strict(gt);
      if (strict != null) {
        return strict;
      }
    }
    return Gsm8kScan.clean(gt.strip());
  }

  static boolean matches(String pred, String gold) {
    if (pred.equals(gold)) {
      return true;
    }
    Rational p = NumberLiteral.parse(pred);
    return p != null && p.equals(NumberLiteral.parse(gold));
  }

  /**
   * Registers {@code gsm8k}; kwargs {@code method} (strict|flexible), {@code format_score}, {@code
   * score}.
   */
  public static final class Provider implements RewardFunctionProvider {
    @Override
    public String name() {
      return "gsm8k";
    }

    @Override
    public RewardFunction create(Map<String, Object> kwargs) {
      RewardKwargs kw = RewardKwargs.of(name(), kwargs, "method", "format_score", "score");
      Method m =
          Method.valueOf(
              kw.getChoice("method", "strict", "strict", "flexible")
                  .toUpperCase(java.util.Locale.ROOT));
      return new Gsm8kReward(
          new Params(m, kw.getDouble("format_score", 0.0), kw.getDouble("score", 1.0)));
    }
  }
}
