package dev.javelin.grpo;

import static dev.javelin.grpo.Fixtures.assertClose;
import static dev.javelin.grpo.Fixtures.doubles;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.javelin.grpo.dapo.DynamicSampler;
import dev.javelin.grpo.dapo.OverlongPenalty;
import dev.javelin.grpo.dapo.ScoredGroup;
import dev.javelin.grpo.entropy.TokenEntropy;
import dev.javelin.grpo.kl.KlController;
import dev.javelin.grpo.kl.KlInReward;
import java.util.List;
import org.junit.jupiter.api.Test;

/** DAPO pieces, KL in the reward and entropy from logits. */
class DapoAndMiscTest {

  private static ScoredGroup<String> group(String uid, double... metric) {
    return new ScoredGroup<>(uid, metric, uid);
  }

  @Test
  void dynamicSamplingDropsFlatGroupsUntilFull() {
    DynamicSampler<String> s = new DynamicSampler<>(3, new FilterGroupsConfig(true, "acc", 3));
    assertEquals(2, s.add(List.of(group("a", 1, 1, 1), group("b", 0, 1, 0), group("c", 0, 0, 0))));
    assertFalse(s.isFull());
    assertTrue(s.mayGenerateMore());
    assertEquals(0, s.add(List.of(group("d", 1, 0), group("solo", 1), group("e", 0.5, 1))));
    assertTrue(s.isFull());
    assertEquals(List.of("b", "d", "solo"), s.take(), "aligned to the target, in arrival order");
    assertEquals(4, s.keptGroups());
    assertEquals(2, s.droppedGroups());
    assertEquals(2.0, s.metrics().get("train/num_gen_batches"));
    assertEquals(2.0, s.metrics().get("train/num_dropped_groups"));
    s.add(List.of());
    assertFalse(s.mayGenerateMore(), "cap of 3 generation batches reached");
  }

  @Test
  void dynamicSamplingDisabledKeepsEverythingAndUncappedNeverStops() {
    DynamicSampler<String> s = new DynamicSampler<>(2, FilterGroupsConfig.disabled());
    s.add(List.of(group("a", 1, 1)));
    assertThrows(IllegalStateException.class, s::take);
    s.add(List.of(group("b", 0, 0)));
    assertEquals(List.of("a", "b"), s.take());
    assertTrue(s.mayGenerateMore());
  }

  @Test
  void overlongPenaltyMatchesReference() {
    JsonNode x = Fixtures.misc().get("overlong");
    OverlongPenalty p =
        new OverlongPenalty(
            new OverlongBufferConfig(true, x.get("buffer").asInt(), x.get("factor").asDouble()),
            x.get("max_len").asInt());
    for (int i = 0; i < x.get("lengths").size(); i++) {
      int len = x.get("lengths").get(i).asInt();
      assertClose(x.get("penalty").get(i).asDouble(), p.penalty(len), 1e-12, "length " + len);
    }
    assertEquals(-1.0, p.penalty(4096), 1e-12);
    assertEquals(0.0, new OverlongPenalty(new OverlongBufferConfig(false, 10, 1), 20).penalty(20));
    assertThrows(
        IllegalArgumentException.class,
        () -> new OverlongPenalty(new OverlongBufferConfig(true, 10, 1), 5));
  }

  @Test
  void klInRewardWithFixedAndAdaptiveControllers() {
    JsonNode x = Fixtures.misc().get("kl_in_reward");
    boolean[] mask = Fixtures.booleans(x.get("mask"));
    double beta = x.get("beta").asDouble();
    KlInReward.Result fixed =
        KlInReward.apply(
            doubles(x.get("scores")),
            doubles(x.get("old")),
            doubles(x.get("ref")),
            mask,
            4,
            7,
            KlEstimator.K1,
            new KlController.Fixed(beta));
    assertClose(doubles(x.get("rewards")), fixed.rewards(), 1e-12, "rewards");
    assertClose(
        x.get("current_kl").asDouble(),
        fixed.metrics().get("actor/reward_kl_penalty"),
        1e-12,
        "kl");
    assertEquals(beta, fixed.next().value());
    KlControlConfig adaptiveCfg =
        new KlControlConfig(
            KlControlConfig.Type.ADAPTIVE,
            beta,
            x.get("horizon").asInt(),
            x.get("target").asDouble());
    KlInReward.Result adaptive =
        KlInReward.apply(
            doubles(x.get("scores")),
            doubles(x.get("old")),
            doubles(x.get("ref")),
            mask,
            4,
            7,
            KlEstimator.K1,
            KlController.of(adaptiveCfg));
    assertClose(x.get("adaptive_next").asDouble(), adaptive.next().value(), 1e-12, "adaptive β");
    assertEquals(beta, adaptive.metrics().get("actor/reward_kl_penalty_coeff"));
  }

  @Test
  void entropyFromLogitsAtTemperatureMatchesReference() {
    JsonNode x = Fixtures.misc().get("entropy_from_logits");
    int n = x.get("tokens").asInt();
    int v = x.get("vocab").asInt();
    double temp = x.get("temperature").asDouble();
    double[] raw = doubles(x.get("logits"));
    float[] logits = new float[raw.length];
    for (int i = 0; i < raw.length; i++) {
      logits[i] = (float) raw[i];
    }
    assertClose(doubles(x.get("entropy")), TokenEntropy.fromLogits(logits, n, v, temp), 1e-9, "H");
    double[] dH = doubles(x.get("d_entropy"));
    assertClose(
        doubles(x.get("d_logits")), TokenEntropy.vjp(logits, n, v, temp, dH), 1e-9, "dlogits");
  }

  @Test
  void uniformLogitsHaveEntropyLogV() {
    float[] logits = new float[3 * 8];
    double[] h = TokenEntropy.fromLogits(logits, 3, 8, 0.6);
    for (double e : h) {
      assertEquals(Math.log(8), e, 1e-12);
    }
  }
}
