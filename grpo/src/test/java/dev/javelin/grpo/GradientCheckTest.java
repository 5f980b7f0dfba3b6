package dev.javelin.grpo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.javelin.grpo.RolloutCorrectionConfig.BypassLossType;
import dev.javelin.grpo.RolloutCorrectionConfig.IsLevel;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Central finite differences against the analytic gradients, coordinate by coordinate. Losses with
 * a stop-gradient term (CISPO's clipped weight, bypass REINFORCE's IS weight) are checked on the
 * surrogate autodiff sees: shifting the old (rollout) log-probs along with the current ones freezes
 * the ratio, so the difference quotient only sees the differentiable path.
 */
class GradientCheckTest {
  private static final double H = 1e-6;
  private static final double TOL = 1e-6;

  static List<Arguments> modesAndAggregations() {
    List<Arguments> out = new ArrayList<>();
    for (String mode :
        List.of("vanilla", "gspo", "gpg", "cispo", "bypass_ppo_clip", "bypass_reinforce")) {
      for (LossAggMode agg : LossAggMode.values()) {
        for (KlEstimator kl :
            List.of(KlEstimator.K1, KlEstimator.ABS, KlEstimator.K2, KlEstimator.K3)) {
          out.add(Arguments.of(mode, agg, kl));
        }
      }
    }
    return out;
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @MethodSource("modesAndAggregations")
  void logProbGradientMatchesFiniteDifferences(String mode, LossAggMode agg, KlEstimator kl) {
    PolicyBatch b =
        RandomBatches.batch(new SplittableRandom(mode.hashCode() + agg.name().hashCode()), 5, 6);
    ActorLossConfig cfg =
        ActorLossConfig.of(config(mode, agg)).withEntropyCoeff(0.05).withKlLoss(kl, 0.3);
    GlobalBatch g = GlobalBatch.of(b).withNormLength(7.0);
    boolean freezeOld = mode.equals("cispo") || mode.equals("bypass_reinforce");
    LossResult r = ActorLoss.compute(b, cfg, g);
    for (int i = 0; i < b.size(); i++) {
      PolicyBatch plus = perturb(b, i, H, freezeOld);
      PolicyBatch minus = perturb(b, i, -H, freezeOld);
      double fd =
          (ActorLoss.compute(plus, cfg, g).value() - ActorLoss.compute(minus, cfg, g).value())
              / (2 * H);
      check(fd, r.dLogProb()[i], mode + " " + agg + " " + kl + " dlogp[" + i + "]");
    }
  }

  @Test
  void entropyGradientMatchesFiniteDifferences() {
    PolicyBatch b = RandomBatches.batch(new SplittableRandom(3), 4, 7);
    for (LossAggMode agg : LossAggMode.values()) {
      ActorLossConfig cfg = ActorLossConfig.of(config("vanilla", agg)).withEntropyCoeff(0.2);
      GlobalBatch g = GlobalBatch.of(b);
      LossResult r = ActorLoss.compute(b, cfg, g);
      for (int i = 0; i < b.size(); i++) {
        double[] hp = b.entropy().clone();
        double[] hm = b.entropy().clone();
        hp[i] += H;
        hm[i] -= H;
        double fd =
            (ActorLoss.compute(b.withEntropy(hp), cfg, g).value()
                    - ActorLoss.compute(b.withEntropy(hm), cfg, g).value())
                / (2 * H);
        check(fd, r.dEntropy()[i], agg + " dH[" + i + "]");
      }
    }
  }

  @Test
  void straightThroughEstimatorsKeepTheirValueAndTakeTheK2Gradient() {
    SplittableRandom rng = new SplittableRandom(9);
    List<KlEstimator[]> pairs =
        List.of(
            new KlEstimator[] {KlEstimator.K1_STRAIGHT_THROUGH, KlEstimator.K1},
            new KlEstimator[] {KlEstimator.ABS_STRAIGHT_THROUGH, KlEstimator.ABS},
            new KlEstimator[] {KlEstimator.K3_STRAIGHT_THROUGH, KlEstimator.K3});
    for (int n = 0; n < 200; n++) {
      double lp = -Math.abs(RandomBatches.normal(rng));
      double ref = lp + RandomBatches.normal(rng);
      for (KlEstimator[] p : pairs) {
        assertEquals(p[1].value(lp, ref), p[0].value(lp, ref), 0.0, p[0].name());
        assertEquals(KlEstimator.K2.gradient(lp, ref), p[0].gradient(lp, ref), 0.0, p[0].name());
      }
    }
  }

  private static PolicyLossConfig config(String mode, LossAggMode agg) {
    PolicyLossConfig.Builder b =
        PolicyLossConfig.builder().clipRatioLow(0.2).clipRatioHigh(0.28).lossAggMode(agg);
    if (mode.startsWith("bypass_")) {
      return b.lossMode(PolicyLossMode.BYPASS_MODE)
          .rolloutCorrection(
              RolloutCorrectionConfig.truncatedIs(IsLevel.SEQUENCE, 1.3)
                  .withRejection("token_k1", "0.5_2.0")
                  .inBypassMode(BypassLossType.parse(mode.substring(7))))
          .build();
    }
    return b.lossMode(PolicyLossMode.parse(mode)).build();
  }

  /** Moves logProb[i] by h; with {@code freezeOld} the old/rollout log-prob moves with it. */
  private static PolicyBatch perturb(PolicyBatch b, int i, double h, boolean freezeOld) {
    UnaryOperator<double[]> shift =
        v -> {
          double[] c = v.clone();
          c[i] += h;
          return c;
        };
    PolicyBatch moved = b.withLogProb(shift.apply(b.logProb()));
    if (!freezeOld) {
      return moved;
    }
    return new PolicyBatch(
        b.rows(),
        b.cols(),
        moved.logProb(),
        shift.apply(b.oldLogProb()),
        b.advantages(),
        b.mask(),
        b.refLogProb(),
        shift.apply(b.rolloutLogProb()),
        b.entropy(),
        b.isWeights());
  }

  private static void check(double fd, double analytic, String what) {
    if (Math.abs(fd - analytic) > TOL * Math.max(1.0, Math.abs(analytic))) {
      fail(what + ": finite difference " + fd + " vs analytic " + analytic);
    }
  }
}
