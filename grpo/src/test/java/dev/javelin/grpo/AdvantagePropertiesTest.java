package dev.javelin.grpo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Invariants of the advantage estimators on random grouped batches. */
class AdvantagePropertiesTest {
  private static final int COLS = 6;

  /** Groups of sizes 1..16, interleaved. */
  private static AdvantageInput randomInput(SplittableRandom rng, double[] scoresOut) {
    List<String> uids = new ArrayList<>();
    for (int g = 1; g <= 16; g++) {
      for (int k = 0; k < g; k++) {
        uids.add("uid-" + g);
      }
    }
    java.util.Collections.shuffle(uids, new java.util.Random(rng.nextLong()));
    int rows = uids.size();
    boolean[] mask = new boolean[rows * COLS];
    for (int r = 0; r < rows; r++) {
      int len = 1 + rng.nextInt(COLS);
      Arrays.fill(mask, r * COLS, r * COLS + len, true);
      scoresOut[r] = RandomBatches.normal(rng);
    }
    return AdvantageInput.fromScores(rows, COLS, scoresOut, mask, uids.toArray(new String[0]));
  }

  private static double[] perRow(AdvantageResult r, AdvantageInput in) {
    double[] a = new double[in.rows()];
    for (int row = 0; row < in.rows(); row++) {
      a[row] = r.advantages()[row * COLS]; // every row has a valid first token
    }
    return a;
  }

  @Test
  void grpoAdvantagesOfEachGroupSumToZero() {
    for (boolean norm : new boolean[] {true, false}) {
      double[] scores = new double[136];
      AdvantageInput in = randomInput(new SplittableRandom(norm ? 1 : 2), scores);
      AlgorithmConfig cfg = AlgorithmConfig.defaults().toBuilder().normAdvByStd(norm).build();
      double[] a = perRow(AdvantageEstimator.GRPO.compute(in, cfg), in);
      for (int g = 2; g <= 16; g++) {
        double sum = 0.0;
        for (int r = 0; r < in.rows(); r++) {
          sum += in.uids()[r].equals("uid-" + g) ? a[r] : 0.0;
        }
        assertEquals(0.0, sum, 1e-9, "group of " + g + " norm=" + norm);
      }
    }
  }

  @Test
  void grpoNormalisedGroupHasUnitSampleStd() {
    double[] scores = new double[136];
    AdvantageInput in = randomInput(new SplittableRandom(3), scores);
    double[] a = perRow(AdvantageEstimator.GRPO.compute(in, AlgorithmConfig.defaults()), in);
    double ss = 0.0;
    int n = 0;
    for (int r = 0; r < in.rows(); r++) {
      if (in.uids()[r].equals("uid-16")) {
        ss += a[r] * a[r];
        n++;
      }
    }
    assertEquals(1.0, Math.sqrt(ss / (n - 1)), 1e-5, "σ of (s − μ)/(σ + 1e-6)");
  }

  @Test
  void aGroupOfOneHasMeanZeroAndStdOne() {
    AdvantageInput in =
        AdvantageInput.fromScores(
            1, 3, new double[] {0.7}, new boolean[] {true, true, false}, new String[] {"a"});
    AdvantageResult r = AdvantageEstimator.GRPO.compute(in, AlgorithmConfig.defaults());
    assertEquals(0.7 / (1.0 + 1e-6), r.advantages()[0], 1e-15);
    assertEquals(0.7 / (1.0 + 1e-6), r.advantages()[1], 1e-15);
    assertEquals(0.0, r.advantages()[2], "padding stays zero");
  }

  @Test
  void scoreSitsOnTheLastValidTokenAndAdvantageIsBroadcastOverTheMask() {
    boolean[] mask = {true, true, true, false, true, false, false, false};
    AdvantageInput in =
        AdvantageInput.fromScores(2, 4, new double[] {1.0, 0.0}, mask, new String[] {"p", "p"});
    assertEquals(1.0, in.tokenRewards()[2]);
    assertEquals(0.0, in.tokenRewards()[4]);
    double[] a = AdvantageEstimator.GRPO.compute(in, AlgorithmConfig.defaults()).advantages();
    double expected = 0.5 / (Math.sqrt(0.5) + 1e-6);
    assertEquals(expected, a[0], 1e-12);
    assertEquals(expected, a[2], 1e-12);
    assertEquals(0.0, a[3]);
    assertEquals(-expected, a[4], 1e-12);
    assertEquals(0.0, a[5]);
  }

  @Test
  void constantRewardGroupGetsZeroAdvantageAndZeroLossGradient() {
    SplittableRandom rng = new SplittableRandom(4);
    boolean[] mask = RandomBatches.raggedMask(rng, 8, 5);
    String[] uids = {"flat", "flat", "flat", "flat", "x", "x", "x", "x"};
    double[] scores = {1, 1, 1, 1, 0, 1, 0, 1};
    AdvantageInput in = AdvantageInput.fromScores(8, 5, scores, mask, uids);
    for (AdvantageEstimator est :
        List.of(
            AdvantageEstimator.GRPO,
            AdvantageEstimator.RLOO,
            AdvantageEstimator.OPO,
            AdvantageEstimator.GRPO_PASSK)) {
      double[] adv = est.compute(in, AlgorithmConfig.of(est)).advantages();
      PolicyBatch b = RandomBatches.batch(rng, 8, 5);
      PolicyBatch batch = PolicyBatch.of(8, 5, b.logProb(), b.oldLogProb(), adv, mask);
      for (PolicyLossMode mode :
          List.of(
              PolicyLossMode.VANILLA,
              PolicyLossMode.GSPO,
              PolicyLossMode.CISPO,
              PolicyLossMode.GPG)) {
        for (LossAggMode agg : LossAggMode.values()) {
          ActorLossConfig cfg =
              ActorLossConfig.of(
                  PolicyLossConfig.builder().lossMode(mode).lossAggMode(agg).build());
          LossResult r = ActorLoss.compute(batch, cfg, GlobalBatch.of(batch));
          for (int i = 0; i < 4 * 5; i++) {
            assertEquals(0.0, r.dLogProb()[i], 0.0, est + " " + mode + " " + agg + " token " + i);
          }
        }
      }
    }
  }

  @Test
  void rlooIsScoreMinusMeanOfTheOthers() {
    boolean[] mask = {true, true, true};
    AdvantageInput in =
        AdvantageInput.fromScores(3, 1, new double[] {1, 2, 6}, mask, new String[] {"g", "g", "g"});
    double[] a =
        AdvantageEstimator.RLOO
            .compute(in, AlgorithmConfig.of(AdvantageEstimator.RLOO))
            .advantages();
    assertEquals(1 - 4.0, a[0], 1e-12);
    assertEquals(2 - 3.5, a[1], 1e-12);
    assertEquals(6 - 1.5, a[2], 1e-12);
  }

  @Test
  void passKOnlyRewardsTheBestResponse() {
    boolean[] mask = {true, true, true};
    AdvantageInput in =
        AdvantageInput.fromScores(
            3, 1, new double[] {0.2, 0.9, 0.5}, mask, new String[] {"g", "g", "g"});
    double[] a =
        AdvantageEstimator.GRPO_PASSK
            .compute(
                in,
                AlgorithmConfig.of(AdvantageEstimator.GRPO_PASSK).toBuilder()
                    .normAdvByStd(false)
                    .build())
            .advantages();
    assertEquals(0.0, a[0]);
    assertEquals(0.4, a[1], 1e-12);
    assertEquals(0.0, a[2]);
    AdvantageInput single =
        AdvantageInput.fromScores(
            1, 1, new double[] {1}, new boolean[] {true}, new String[] {"solo"});
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> AdvantageEstimator.GRPO_PASSK.compute(single, AlgorithmConfig.defaults()));
    assertTrue(e.getMessage().contains("solo"), e.getMessage());
  }

  @Test
  void remaxNeedsTheGreedyBaseline() {
    AdvantageInput in =
        AdvantageInput.fromScores(
            1, 2, new double[] {1}, new boolean[] {true, true}, new String[] {"a"});
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> AdvantageEstimator.REMAX.compute(in, AlgorithmConfig.defaults()));
    assertTrue(e.getMessage().contains("rewardBaselines"), e.getMessage());
    double[] a =
        AdvantageEstimator.REMAX
            .compute(in.withRewardBaselines(new double[] {0.25}), AlgorithmConfig.defaults())
            .advantages();
    assertEquals(0.75, a[0], 1e-12);
    assertEquals(0.75, a[1], 1e-12);
  }
}
