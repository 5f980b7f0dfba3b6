package dev.javelin.grpo;

import static dev.javelin.grpo.Fixtures.assertClose;
import static dev.javelin.grpo.Fixtures.assertMetrics;
import static dev.javelin.grpo.Fixtures.doubles;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.javelin.grpo.RolloutCorrectionConfig.BypassLossType;
import dev.javelin.grpo.RolloutCorrectionConfig.IsLevel;
import dev.javelin.grpo.correction.Correction;
import dev.javelin.grpo.correction.RolloutCorrection;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Java against the independent numpy reference (tools/grpo_reference.py), case by case. */
class ReferenceFixtureTest {

  static List<Fixtures.Case> cases() {
    return Fixtures.cases();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void advantageEstimatorsMatch(Fixtures.Case c) {
    AdvantageInput in =
        new AdvantageInput(
            c.rows(),
            c.cols(),
            c.in("token_rewards"),
            c.mask(),
            c.uids(),
            c.in("reward_baselines"));
    c.expected()
        .get("advantages")
        .properties()
        .forEach(
            e -> {
              AdvantageResult r =
                  AdvantageEstimator.parse(baseName(e.getKey())).compute(in, config(e.getKey()));
              assertClose(
                  doubles(e.getValue().get("advantages")), r.advantages(), c.tol(), e.getKey());
              assertClose(
                  doubles(e.getValue().get("returns")),
                  r.returns(),
                  c.tol(),
                  e.getKey() + " returns");
            });
  }

  private static String baseName(String variant) {
    int slash = variant.indexOf('/');
    return slash < 0 ? variant : variant.substring(0, slash);
  }

  private static AlgorithmConfig config(String variant) {
    AlgorithmConfig c = AlgorithmConfig.of(AdvantageEstimator.parse(baseName(variant)));
    if (variant.endsWith("/no_std")) {
      return c.toBuilder().normAdvByStd(false).build();
    }
    if (variant.endsWith("/gamma0.9")) {
      return c.toBuilder().gamma(0.9).build();
    }
    return c;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void klEstimatorsMatch(Fixtures.Case c) {
    double[] lp = c.in("log_prob");
    double[] ref = c.in("ref_log_prob");
    c.expected()
        .get("kl")
        .properties()
        .forEach(
            e -> {
              KlEstimator kl = KlEstimator.parse(e.getKey(), "kl_loss_type");
              double[] value = new double[lp.length];
              double[] grad = new double[lp.length];
              for (int i = 0; i < lp.length; i++) {
                value[i] = kl.value(lp[i], ref[i]);
                grad[i] = kl.gradient(lp[i], ref[i]);
              }
              assertClose(doubles(e.getValue().get("value")), value, c.tol(), e.getKey());
              assertClose(doubles(e.getValue().get("grad")), grad, c.tol(), e.getKey() + " grad");
            });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void aggregationMatchesVerlLocalForm(Fixtures.Case c) {
    GlobalBatch local = GlobalBatch.of(c.mask(), c.rows(), c.cols());
    double[] loss = c.in("loss_matrix");
    c.expected()
        .get("aggregation")
        .properties()
        .forEach(
            e -> {
              double[] w =
                  LossAggMode.parse(e.getKey()).weights(c.mask(), c.rows(), c.cols(), local);
              assertClose(e.getValue().asDouble(), LossAggMode.dot(w, loss), c.tol(), e.getKey());
            });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void policyLossesMatch(Fixtures.Case c) {
    PolicyBatch batch = c.batch(grpoAdvantages(c));
    c.expected()
        .get("policy_loss")
        .properties()
        .forEach(
            e -> {
              String[] parts = e.getKey().split("/", -1);
              ActorLossConfig cfg = ActorLossConfig.of(policyConfig(parts[0], parts[1]));
              LossResult r = ActorLoss.compute(batch, cfg, GlobalBatch.of(batch));
              JsonNode x = e.getValue();
              assertClose(x.get("value").asDouble(), r.value(), c.tol(), e.getKey());
              assertClose(doubles(x.get("grad")), r.dLogProb(), c.tol(), e.getKey() + " grad");
              assertMetrics(x.get("metrics"), r.metrics(), c.tol(), e.getKey());
            });
  }

  static PolicyLossConfig policyConfig(String mode, String agg) {
    PolicyLossConfig.Builder b =
        PolicyLossConfig.builder()
            .clipRatio(0.2)
            .clipRatioHigh(0.28)
            .clipRatioC(3.0)
            .lossAggMode(LossAggMode.parse(agg));
    if (mode.startsWith("bypass_")) {
      BypassLossType type = BypassLossType.parse(mode.substring("bypass_".length()));
      return b.lossMode(PolicyLossMode.BYPASS_MODE)
          .rolloutCorrection(
              RolloutCorrectionConfig.truncatedIs(IsLevel.TOKEN, 1.5)
                  .withRejection("token_k1", "0.7_1.4")
                  .inBypassMode(type))
          .build();
    }
    return b.lossMode(PolicyLossMode.parse(mode)).build();
  }

  private static double[] grpoAdvantages(Fixtures.Case c) {
    return doubles(c.expected().get("advantages").get("grpo").get("advantages"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void rolloutCorrectionMatches(Fixtures.Case c) {
    c.expected()
        .get("correction")
        .properties()
        .forEach(
            e -> {
              RolloutCorrectionConfig rc = correctionConfig(e.getKey());
              Correction corr =
                  RolloutCorrection.compute(
                      c.in("old_log_prob"),
                      c.in("rollout_log_prob"),
                      c.mask(),
                      c.rows(),
                      c.cols(),
                      rc);
              JsonNode x = e.getValue();
              assertArrayEquals(
                  Fixtures.booleans(x.get("mask")), corr.mask(), e.getKey() + " mask");
              assertMetrics(x.get("metrics"), corr.metrics(), c.tol(), e.getKey());
              if (x.has("weights")) {
                assertClose(doubles(x.get("weights")), corr.weights(), c.tol(), e.getKey() + " w");
                PolicyBatch b =
                    c.batch(grpoAdvantages(c)).withCorrection(corr.weights(), corr.mask());
                LossResult r =
                    ActorLoss.compute(
                        b,
                        ActorLossConfig.of(policyConfig("vanilla", "token-mean")),
                        GlobalBatch.of(corr.mask(), c.rows(), c.cols()));
                JsonNode v = x.get("vanilla_token_mean");
                assertClose(v.get("value").asDouble(), r.value(), c.tol(), e.getKey() + " loss");
                assertClose(doubles(v.get("grad")), r.dLogProb(), c.tol(), e.getKey() + " grad");
              }
            });
  }

  private static RolloutCorrectionConfig correctionConfig(String name) {
    return switch (name) {
      case "tis_token" -> RolloutCorrectionConfig.truncatedIs(IsLevel.TOKEN, 1.5);
      case "tis_sequence" -> RolloutCorrectionConfig.truncatedIs(IsLevel.SEQUENCE, 2.0);
      case "tis_token_norm" ->
          RolloutCorrectionConfig.truncatedIs(IsLevel.TOKEN, 1.5).withBatchNormalize(true);
      case "tis_sequence_norm" ->
          RolloutCorrectionConfig.truncatedIs(IsLevel.SEQUENCE, 2.0).withBatchNormalize(true);
      case "rs_mixed" ->
          RolloutCorrectionConfig.disabled()
              .withRejection(
                  "token_k1,seq_mean_k3,seq_max_k2,seq_sum_k2", "0.8_1.25,0.01,0.05,0.3");
      case "tis_rs" ->
          RolloutCorrectionConfig.truncatedIs(IsLevel.TOKEN, 2.0)
              .withRejection("token_k3,seq_sum_k1", "0.02,1.5");
      default -> throw new IllegalArgumentException("unknown fixture config " + name);
    };
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void actorLossCompositionMatches(Fixtures.Case c) {
    PolicyBatch batch =
        c.batch(grpoAdvantages(c))
            .withEntropy(c.in("entropy"))
            .withRefLogProb(c.in("ref_log_prob"));
    c.expected()
        .get("actor")
        .properties()
        .forEach(
            e -> {
              String[] parts = e.getKey().split("/", -1);
              ActorLossConfig cfg =
                  ActorLossConfig.of(policyConfig("vanilla", parts[0]))
                      .withEntropyCoeff(0.01)
                      .withKlLoss(KlEstimator.parse(parts[1], "kl_loss_type"), 0.001);
              LossResult r = ActorLoss.compute(batch, cfg, GlobalBatch.of(batch));
              JsonNode x = e.getValue();
              assertClose(x.get("value").asDouble(), r.value(), c.tol(), e.getKey());
              assertClose(doubles(x.get("dlogp")), r.dLogProb(), c.tol(), e.getKey() + " dlogp");
              assertClose(doubles(x.get("dentropy")), r.dEntropy(), c.tol(), e.getKey() + " dH");
              assertMetrics(x.get("metrics"), r.metrics(), c.tol(), e.getKey());
            });
  }
}
