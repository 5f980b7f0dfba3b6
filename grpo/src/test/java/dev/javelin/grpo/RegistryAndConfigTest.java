package dev.javelin.grpo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.grpo.RolloutCorrectionConfig.IsLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Registries resolve VeRL's recipe strings; bad names and bad configs fail with clear messages. */
class RegistryAndConfigTest {

  private static String message(Executable e) {
    return assertThrows(IllegalArgumentException.class, e).getMessage();
  }

  @Test
  void everyVerlKeyResolves() {
    for (String k :
        new String[] {
          "grpo",
          "grpo_passk",
          "rloo",
          "reinforce_plus_plus",
          "reinforce_plus_plus_baseline",
          "opo",
          "gpg",
          "remax"
        }) {
      assertEquals(k, AdvantageEstimator.parse(k).key());
    }
    for (String k : new String[] {"vanilla", "gspo", "cispo", "gpg", "bypass_mode"}) {
      assertEquals(k, PolicyLossMode.parse(k).key());
    }
    for (String k :
        new String[] {
          "token-mean", "seq-mean-token-sum", "seq-mean-token-mean", "seq-mean-token-sum-norm"
        }) {
      assertEquals(k, LossAggMode.parse(k).key());
    }
    assertSame(KlEstimator.K1, KlEstimator.parse("kl", "f"));
    assertSame(KlEstimator.K1, KlEstimator.parse("k1", "f"));
    assertSame(KlEstimator.K2, KlEstimator.parse("mse", "f"));
    assertSame(KlEstimator.K2, KlEstimator.parse("k2+", "f"));
    assertSame(KlEstimator.K3, KlEstimator.parse("low_var_kl", "f"));
    assertSame(KlEstimator.K3_STRAIGHT_THROUGH, KlEstimator.parse("k3+", "f"));
  }

  @Test
  void unknownNamesListValidOnesAndTheClosest() {
    String m = message(() -> AdvantageEstimator.parse("gpro"));
    assertTrue(m.contains("unknown advEstimator 'gpro'"), m);
    assertTrue(m.contains("rloo") && m.contains("remax"), m);
    assertTrue(m.contains("did you mean 'grpo'"), m);
    m = message(() -> PolicyLossMode.parse("vanila"));
    assertTrue(m.contains("did you mean 'vanilla'"), m);
    m = message(() -> LossAggMode.parse("token_mean"));
    assertTrue(m.contains("did you mean 'token-mean'"), m);
    m = message(() -> KlEstimator.parse("low_var", "actor.kl_loss_type"));
    assertTrue(m.contains("actor.kl_loss_type") && m.contains("low_var_kl"), m);
    assertTrue(message(() -> AdvantageEstimator.parse("gae")).contains("critic"));
    assertTrue(message(() -> KlEstimator.parse("full", "f")).contains("vocabulary"));
  }

  @Test
  void clipRatiosDefaultToClipRatio() {
    PolicyLossConfig c = PolicyLossConfig.builder().clipRatio(0.1).build();
    assertEquals(0.1, c.clipRatioLow());
    assertEquals(0.1, c.clipRatioHigh());
    assertEquals(3.0, c.clipRatioC());
    PolicyLossConfig dapo = PolicyLossConfig.builder().clipRatio(0.2).clipRatioHigh(0.28).build();
    assertEquals(0.2, dapo.clipRatioLow());
    assertEquals(0.28, dapo.clipRatioHigh());
  }

  @Test
  void badConfigsNameTheirKey() {
    assertTrue(
        message(() -> PolicyLossConfig.builder().clipRatioC(1.0).build())
            .contains("clipRatioC must be > 1"));
    assertTrue(
        message(() -> PolicyLossConfig.builder().clipRatioLow(-0.1).build())
            .contains("clipRatioLow must be"));
    assertTrue(
        message(() -> PolicyLossConfig.builder().lossScaleFactor(-1).build())
            .contains("lossScaleFactor must be >= 0"));
    assertTrue(
        message(() -> ActorLossConfig.defaults().withEntropyCoeff(-1))
            .contains("entropyCoeff must be"));
    assertTrue(
        message(() -> new KlControlConfig(KlControlConfig.Type.ADAPTIVE, 0.1, 0, 0.1))
            .contains("horizon"));
    assertTrue(
        message(() -> AlgorithmConfig.defaults().toBuilder().gamma(1.5).build())
            .contains("gamma must be in [0, 1]"));
    assertTrue(message(() -> new GlobalBatch(0, 1, 1)).contains("tokens"));
    assertTrue(message(() -> new FilterGroupsConfig(true, null, 0)).contains("metric must be set"));
    assertTrue(
        message(() -> RolloutCorrectionConfig.truncatedIs(IsLevel.TOKEN, 0))
            .contains("rolloutIsThreshold must be > 0"));
    assertTrue(
        message(() -> RolloutCorrectionConfig.disabled().withRejection("token_k4", "1"))
            .contains("token_k1"));
    assertTrue(
        message(() -> RolloutCorrectionConfig.disabled().withRejection("token_k2", "0.5_2"))
            .contains("one upper"));
    assertTrue(
        message(
                () ->
                    RolloutCorrectionConfig.disabled().withRejection("token_k1,token_k2", "1,2,3"))
            .contains("1 or 2"));
  }

  @Test
  void badBatchesNameTheirField() {
    assertTrue(
        message(
                () ->
                    PolicyBatch.of(
                        2, 3, new double[6], new double[5], new double[6], new boolean[6]))
            .contains("oldLogProb"));
    PolicyBatch b =
        PolicyBatch.of(
            1, 2, new double[2], new double[2], new double[2], new boolean[] {true, true});
    ActorLossConfig kl = ActorLossConfig.defaults().withKlLoss(KlEstimator.K3, 0.1);
    assertTrue(message(() -> ActorLoss.compute(b, kl, GlobalBatch.of(b))).contains("refLogProb"));
    ActorLossConfig ent = ActorLossConfig.defaults().withEntropyCoeff(0.1);
    assertTrue(message(() -> ActorLoss.compute(b, ent, GlobalBatch.of(b))).contains("entropy"));
    assertTrue(
        message(
                () ->
                    AdvantageInput.fromScores(
                        2, 1, new double[] {1, 2}, new boolean[] {true, true}, new String[] {"a"}))
            .contains("uids"));
  }

  @Test
  void seqMeanTokenSumNormUsesTheConfiguredScaleFactor() {
    boolean[] mask = {true, true, false, true, false, false};
    GlobalBatch g =
        PolicyLossConfig.builder()
            .lossScaleFactor(10)
            .build()
            .normalize(GlobalBatch.of(mask, 2, 3));
    double[] w = LossAggMode.SEQ_MEAN_TOKEN_SUM_NORM.weights(mask, 2, 3, g);
    assertEquals(0.1, w[0]);
    assertEquals(0.0, w[2]);
    assertEquals(3, GlobalBatch.of(mask, 2, 3).normLength());
  }
}
