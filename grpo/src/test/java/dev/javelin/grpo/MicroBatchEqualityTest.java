package dev.javelin.grpo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Gradient accumulation is exact: micro-batch losses and gradients, normalised by the global
 * mini-batch counts, sum to those of the one big batch, for every aggregation and loss.
 */
class MicroBatchEqualityTest {
  private static final int[] SPLITS = {0, 3, 4, 9, 12}; // micro-batches of 3, 1, 5, 3 rows

  @ParameterizedTest
  @EnumSource(LossAggMode.class)
  void microBatchesSumToTheFullBatch(LossAggMode agg) {
    PolicyBatch full = RandomBatches.batch(new SplittableRandom(agg.name().hashCode()), 12, 9);
    for (String mode : List.of("vanilla", "gspo", "cispo", "gpg")) {
      ActorLossConfig cfg =
          ActorLossConfig.of(
                  PolicyLossConfig.builder()
                      .lossMode(PolicyLossMode.parse(mode))
                      .lossAggMode(agg)
                      .build())
              .withEntropyCoeff(0.01)
              .withKlLoss(KlEstimator.K3, 0.1);
      GlobalBatch global = GlobalBatch.of(full);
      LossResult one = ActorLoss.compute(full, cfg, global);
      double sum = 0.0;
      double[] grad = new double[full.size()];
      double[] dH = new double[full.size()];
      for (int k = 0; k + 1 < SPLITS.length; k++) {
        LossResult part = ActorLoss.compute(full.slice(SPLITS[k], SPLITS[k + 1]), cfg, global);
        sum += part.value();
        System.arraycopy(part.dLogProb(), 0, grad, SPLITS[k] * full.cols(), part.dLogProb().length);
        System.arraycopy(part.dEntropy(), 0, dH, SPLITS[k] * full.cols(), part.dEntropy().length);
      }
      assertEquals(one.value(), sum, 1e-12, mode + " " + agg + " value");
      for (int i = 0; i < grad.length; i++) {
        assertEquals(one.dLogProb()[i], grad[i], 1e-12, mode + " " + agg + " dlogp " + i);
        assertEquals(one.dEntropy()[i], dH[i], 1e-12, mode + " " + agg + " dH " + i);
      }
    }
  }

  /** VeRL's legacy per-micro-batch normalisation (local counts, 1/n scaling) is not exact. */
  @ParameterizedTest
  @EnumSource(
      value = LossAggMode.class,
      names = {"TOKEN_MEAN", "SEQ_MEAN_TOKEN_MEAN"})
  void localNormalisationWouldNotBe(LossAggMode agg) {
    PolicyBatch full = RandomBatches.batch(new SplittableRandom(5), 12, 9);
    ActorLossConfig cfg = ActorLossConfig.of(PolicyLossConfig.builder().lossAggMode(agg).build());
    double exact = ActorLoss.compute(full, cfg, GlobalBatch.of(full)).value();
    double legacy = 0.0;
    int micro = SPLITS.length - 1;
    for (int k = 0; k < micro; k++) {
      PolicyBatch part = full.slice(SPLITS[k], SPLITS[k + 1]);
      legacy += ActorLoss.compute(part, cfg, GlobalBatch.of(part)).value() / micro;
    }
    assertTrue(Math.abs(exact - legacy) > 1e-6, "ragged micro-batches should differ: " + exact);
  }
}
