package dev.javelin.trainer.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.Devices;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.grpo.correction.RolloutProbsDiff;
import dev.javelin.trainer.Fixtures;
import dev.javelin.trainer.GangRankException;
import dev.javelin.trainer.SftExample;
import dev.javelin.trainer.TrainSample;
import dev.javelin.trainer.TrainerConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Gangs of 2 and 3 thread ranks against one process on the same batches: each rank computes only
 * its share of every step's micro-batches, yet the metrics (summed and averaged over all
 * micro-batches) and the weights are those of one process, and all ranks hold the same weights.
 */
class ThreadGangTrainerTest {
  private static final ModelCheckpoint INITIAL = Fixtures.microCheckpoint(7);
  private static final double REL = 1e-5;

  @Test
  void twoRanksRunPpoEpochsWithKlLikeOneProcess() {
    TrainerConfig c =
        Fixtures.klConfig(8, 2).toBuilder().epochs(2, true).logProbMicroBatchSize(4).build();
    try (PpoUpdater one = updater(c, null);
        ThreadGangTrainer gang = gang(2, c)) {
      for (int step = 0; step < 3; step++) {
        List<TrainSample> batch = Fixtures.batch(100 + step, 4, 4); // 16: two mini-batches
        assertMetricsClose(Fixtures.grpoStep(one, batch), Fixtures.grpoStep(gang, batch));
      }
      assertRanksEqualAndClose(one, gang);
      assertEquals(one.optimizerSteps(), gang.optimizerSteps());
    }
  }

  @Test
  void threeRanksTakeOldLogProbsFromTheUpdateLikeOneProcess() {
    // one mini-batch of 8 in micro-batches of 2 and no π_old passed: the forward pass is π_old,
    // taken on three ranks and merged for the rollout probability metrics
    AdamWConfig smooth = new AdamWConfig(0.9, 0.999, 1e-2, 0.0, 1.0);
    TrainerConfig base = Fixtures.config(8, 2);
    TrainerConfig c =
        TrainerConfig.builder(8, 2, smooth, base.schedule(), base.loss())
            .temperature(0.8)
            .useReference(false)
            .build();
    try (PpoUpdater one = updater(c, null);
        ThreadGangTrainer gang = gang(3, c)) {
      for (int step = 0; step < 3; step++) {
        List<TrainSample> batch = Fixtures.batch(200 + step, 2, 4);
        Map<String, Double> a = one.update(batch).metrics();
        Map<String, Double> b = gang.update(batch).metrics();
        assertTrue(a.containsKey(RolloutProbsDiff.MEAN), a.toString());
        assertMetricsClose(a, b);
      }
      assertRanksEqualAndClose(one, gang);
    }
  }

  @Test
  void sftStepsMatchOneProcess() {
    TrainerConfig c = Fixtures.config(8, 2);
    try (PpoUpdater one = updater(c, null);
        ThreadGangTrainer gang = gang(2, c)) {
      for (int step = 0; step < 3; step++) {
        List<SftExample> ex = new ArrayList<>();
        for (TrainSample s : Fixtures.batch(300 + step, 2, 3)) { // 6: three micro-batches
          ex.add(new SftExample(s.promptIds(), s.responseIds()));
        }
        assertMetricsClose(one.sftStep(ex), gang.sftStep(ex));
      }
      assertRanksEqualAndClose(one, gang);
    }
  }

  @Test
  void aRankThatFailsStopsItsPeersAtOnceAndItsErrorIsRethrown() {
    TrainerConfig c = Fixtures.config(8, 2);
    TrainerConfig odd = Fixtures.config(16, 2); // rank 1 refuses a batch of 8 before its first step
    try (ThreadGangTrainer gang =
        ThreadGangTrainer.start(
            2, Duration.ofMinutes(2), g -> updater(g.rank() == 1 ? odd : c, g))) {
      long start = System.nanoTime();
      GangRankException e =
          assertThrows(GangRankException.class, () -> gang.update(Fixtures.batch(400, 2, 4)));
      assertTrue(e.getMessage().contains("multiple of miniBatchSize = 16"), e.getMessage());
      assertEquals(1, e.rank(), e.getMessage());
      assertTrue(e.getSuppressed()[0] instanceof IllegalArgumentException, e.toString());
      double seconds = (System.nanoTime() - start) / 1e9;
      assertTrue(seconds < 60, "rank 0 waited for its peer's timeout: " + seconds + " s");
    }
  }

  @Test
  void aGangRestartedAfterARankFailedTrainsLikeAFreshGang() {
    TrainerConfig c = Fixtures.klConfig(8, 2);
    TrainerConfig odd = Fixtures.klConfig(16, 2); // the first rank 1 fails; its replacement not
    AtomicInteger built = new AtomicInteger();
    try (ThreadGangTrainer fresh = gang(2, c);
        ThreadGangTrainer gang =
            ThreadGangTrainer.start(
                2,
                Duration.ofMinutes(2),
                g -> updater(g.rank() == 1 && built.getAndIncrement() == 0 ? odd : c, g))) {
      GangRankException e =
          assertThrows(
              GangRankException.class, () -> Fixtures.grpoStep(gang, Fixtures.batch(501, 2, 4)));
      assertEquals(1, e.rank(), e.getMessage());
      gang.restart();
      assertEquals(0, gang.optimizerSteps(), "a restarted gang starts from the initial model");
      for (int step = 0; step < 2; step++) {
        List<TrainSample> batch = Fixtures.batch(510 + step, 2, 4);
        assertMetricsClose(Fixtures.grpoStep(fresh, batch), Fixtures.grpoStep(gang, batch));
      }
      for (int rank = 0; rank < 2; rank++) {
        int r = rank;
        ModelCheckpoint want = fresh.rank(r).policyCheckpoint();
        ModelCheckpoint got = gang.rank(r).policyCheckpoint();
        want.weights()
            .forEach(
                (k, w) ->
                    assertArrayEquals(w.data(), got.weights().get(k).data(), k + " rank " + r));
      }
    }
  }

  private static PpoUpdater updater(TrainerConfig c, dev.javelin.backend.distributed.Gang g) {
    return PpoUpdater.owning(
        Devices.open("cpu"), INITIAL, c, UpdaterOptions.defaults().withGang(g));
  }

  private static ThreadGangTrainer gang(int size, TrainerConfig c) {
    return ThreadGangTrainer.start(size, Duration.ofSeconds(60), g -> updater(c, g));
  }

  private static void assertMetricsClose(Map<String, Double> want, Map<String, Double> got) {
    assertEquals(want.keySet(), got.keySet());
    want.forEach(
        (k, v) -> {
          if (!k.startsWith("timing_s/")) {
            assertEquals(v, got.get(k), REL * Math.abs(v) + 1e-7, k);
          }
        });
  }

  private static void assertRanksEqualAndClose(PpoUpdater one, ThreadGangTrainer gang) {
    ModelCheckpoint want = one.policyCheckpoint();
    ModelCheckpoint rank0 = gang.rank(0).policyCheckpoint();
    for (int r = 1; r < gang.size(); r++) {
      ModelCheckpoint other = gang.rank(r).policyCheckpoint();
      rank0
          .weights()
          .forEach(
              (k, w) ->
                  assertArrayEquals(w.data(), other.weights().get(k).data(), k + " on ranks 0/r"));
    }
    PpoUpdaterTest.assertWeightsClose(want, rank0, 1e-6);
    double moved = 0;
    for (var e : INITIAL.weights().entrySet()) {
      float[] a = e.getValue().data();
      float[] b = rank0.weights().get(e.getKey()).data();
      for (int i = 0; i < a.length; i++) {
        moved = Math.max(moved, Math.abs(a[i] - b[i]));
      }
    }
    assertTrue(moved > 1e-4, "the steps barely moved the weights: " + moved);
  }
}
