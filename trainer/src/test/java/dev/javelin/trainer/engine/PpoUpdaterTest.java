package dev.javelin.trainer.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.TokenBatch;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.backend.runtime.PolicyOptimizer;
import dev.javelin.grpo.correction.RolloutProbsDiff;
import dev.javelin.trainer.Fixtures;
import dev.javelin.trainer.PolicyRole;
import dev.javelin.trainer.SftExample;
import dev.javelin.trainer.TrainSample;
import dev.javelin.trainer.TrainerConfig;
import dev.javelin.trainer.UpdateResult;
import dev.javelin.weightsync.WeightSnapshot;
import dev.javelin.weightsync.WireType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PpoUpdaterTest {
  private static Device device;
  private static final ModelCheckpoint INITIAL = Fixtures.microCheckpoint(7);

  @BeforeAll
  static void open() {
    device = Devices.open("cpu");
  }

  @AfterAll
  static void close() {
    device.close();
  }

  /** VeRL's order: old (and ref) log-probs first, then the update. */
  static Map<String, Double> grpoStep(PpoUpdater t, List<TrainSample> batch) {
    return grpoUpdate(t, batch).metrics();
  }

  /** {@link #grpoStep}'s whole result: the metrics and the update's own π_old time (none). */
  static UpdateResult grpoUpdate(PpoUpdater t, List<TrainSample> batch) {
    float[][] old = t.logProbs(batch, PolicyRole.ACTOR);
    float[][] ref = t.config().useReference() ? t.logProbs(batch, PolicyRole.REFERENCE) : null;
    List<TrainSample> ready = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      TrainSample s = batch.get(i).withOldLogProbs(old[i]);
      ready.add(ref == null ? s : s.withRefLogProbs(ref[i]));
    }
    return t.update(ready);
  }

  static void assertWeightsClose(ModelCheckpoint a, ModelCheckpoint b, double tol) {
    for (Map.Entry<String, Tensor.F32> e : a.weights().entrySet()) {
      float[] x = e.getValue().data();
      float[] y = b.weights().get(e.getKey()).data();
      for (int i = 0; i < x.length; i++) {
        double err = Math.abs(x[i] - y[i]);
        if (err > tol) {
          throw new AssertionError(
              e.getKey() + "[" + i + "]: " + x[i] + " vs " + y[i] + " (tol " + tol + ")");
        }
      }
    }
  }

  @Test
  void logProbsMatchTheModelAndDoNotDependOnBatching() {
    List<TrainSample> batch = Fixtures.batch(11, 3, 4); // 12 samples, ragged lengths
    try (PpoUpdater whole = new PpoUpdater(device, INITIAL, Fixtures.config(12, 12));
        PpoUpdater oneByOne =
            new PpoUpdater(
                device, INITIAL, Fixtures.config(12, 12).toBuilder().microBatchSize(1).build());
        PolicyModel model = PolicyModel.of(device, INITIAL)) {
      float[][] a = whole.logProbs(batch, PolicyRole.ACTOR);
      float[][] b = oneByOne.logProbs(batch, PolicyRole.ACTOR);
      for (int i = 0; i < batch.size(); i++) {
        TrainSample s = batch.get(i);
        assertEquals(s.responseIds().length, a[i].length);
        int[] row = new int[s.totalLength()];
        System.arraycopy(s.promptIds(), 0, row, 0, s.promptIds().length);
        System.arraycopy(s.responseIds(), 0, row, s.promptIds().length, s.responseIds().length);
        Tensor.F32 lp = model.logProbs(TokenBatch.rightPadded(List.of(row), 2), 1f).logp();
        for (int k = 0; k < a[i].length; k++) {
          float want = lp.data()[s.promptIds().length - 1 + k];
          assertEquals(want, a[i][k], 1e-5, "sample " + i + " token " + k);
          assertEquals(want, b[i][k], 1e-5, "sample " + i + " token " + k + " (unbatched)");
        }
      }
    }
  }

  @Test
  void aPpoStepWithUnitAdvantagesIsACrossEntropyStep() {
    // With π_old = π_θ the ratio is 1, so token-mean PPO-clip with Â = +1 has ∂L/∂logπ = −1/N on
    // every response token: exactly the SFT gradient. Same batches → same weights. This pins the
    // column mapping between the model's tokens and the loss's response arrays.
    List<TrainSample> batch = new ArrayList<>();
    List<SftExample> examples = new ArrayList<>();
    for (TrainSample s : Fixtures.batch(21, 4, 2)) {
      batch.add(
          TrainSample.of(s.promptUid(), s.promptIds(), s.responseIds(), s.rolloutLogProbs(), 1, 1));
      examples.add(new SftExample(s.promptIds(), s.responseIds()));
    }
    // A large ε makes AdamW's first step smooth in g, so float noise cannot flip tiny updates.
    AdamWConfig smooth = new AdamWConfig(0.9, 0.999, 1e-2, 0.0, Double.POSITIVE_INFINITY);
    TrainerConfig base = Fixtures.config(8, 4);
    TrainerConfig c =
        TrainerConfig.builder(8, 4, smooth, base.schedule(), base.loss())
            .temperature(1.0)
            .useReference(false)
            .build();
    try (PpoUpdater ppo = new PpoUpdater(device, INITIAL, c);
        PpoUpdater sft = new PpoUpdater(device, INITIAL, c)) {
      Map<String, Double> m = grpoStep(ppo, batch);
      Map<String, Double> s = sft.sftStep(examples);
      assertEquals(-1.0, m.get("actor/pg_loss"), 1e-5);
      assertEquals(0.0, m.get("actor/pg_clipfrac"), 0.0);
      assertEquals(s.get("sft/grad_norm"), m.get("actor/grad_norm"), 1e-5 * s.get("sft/grad_norm"));
      assertWeightsClose(ppo.policyCheckpoint(), sft.policyCheckpoint(), 1e-6);
    }
  }

  @Test
  void anOnPolicyUpdateMaySkipTheOldLogProbPass() {
    List<TrainSample> batch = Fixtures.batch(91, 2, 4);
    AdamWConfig smooth = new AdamWConfig(0.9, 0.999, 1e-2, 0.0, 1.0);
    TrainerConfig base = Fixtures.config(8, 4);
    TrainerConfig c =
        TrainerConfig.builder(8, 4, smooth, base.schedule(), base.loss())
            .temperature(0.8)
            .useReference(false)
            .build();
    try (PpoUpdater recomputed = new PpoUpdater(device, INITIAL, c);
        PpoUpdater skipped = new PpoUpdater(device, INITIAL, c)) {
      assertTrue(skipped.isOnPolicy(batch.size()));
      Map<String, Double> a = grpoStep(recomputed, batch);
      Map<String, Double> b = skipped.update(batch).metrics();
      assertEquals(a.get("actor/pg_loss"), b.get("actor/pg_loss"), 1e-6);
      assertEquals(0.0, b.get("actor/ppo_kl"), 0.0);
      assertWeightsClose(recomputed.policyCheckpoint(), skipped.policyCheckpoint(), 1e-6);
    }
    try (PpoUpdater t = new PpoUpdater(device, INITIAL, c.toBuilder().epochs(2, false).build())) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> t.update(batch));
      assertTrue(e.getMessage().contains("oldLogProbs"), e.getMessage());
    }
  }

  @Test
  void withSeveralMiniBatchesTheFirstTakesItsOwnOldLogProbsAndTheRestArePassedFirst() {
    List<TrainSample> batch = Fixtures.batch(93, 2, 4); // 8 samples, mini-batches of 4
    AdamWConfig smooth = new AdamWConfig(0.9, 0.999, 1e-2, 0.0, 1.0);
    TrainerConfig base = Fixtures.config(8, 4);
    TrainerConfig c =
        TrainerConfig.builder(4, 4, smooth, base.schedule(), base.loss())
            .temperature(0.8)
            .useReference(false)
            .build();
    assertTrue(c.oldLogProbsInUpdate());
    try (PpoUpdater recomputed = new PpoUpdater(device, INITIAL, c);
        PpoUpdater inUpdate = new PpoUpdater(device, INITIAL, c)) {
      assertFalse(inUpdate.isOnPolicy(batch.size()));
      UpdateResult passed = grpoUpdate(recomputed, batch);
      UpdateResult taken = inUpdate.update(batch);
      Map<String, Double> a = passed.metrics();
      Map<String, Double> b = taken.metrics();
      assertEquals(a.get("actor/pg_loss"), b.get("actor/pg_loss"), 1e-6);
      assertEquals(a.get("actor/ppo_kl"), b.get("actor/ppo_kl"), 1e-6);
      assertTrue(taken.oldLogProbSeconds() > 0, taken.toString());
      assertFalse(passed.tookOldLogProbs(), passed.toString());
      assertFalse(b.keySet().stream().anyMatch(k -> k.startsWith("timing_s/")), b.toString());
      assertWeightsClose(recomputed.policyCheckpoint(), inUpdate.policyCheckpoint(), 1e-6);
      // π_old taken by the first mini-batch's forward gives the metrics of π_old passed in
      for (String k : PROBS_DIFF) {
        assertEquals(a.get(k), b.get(k), 1e-6, k);
      }
      assertTrue(a.get(RolloutProbsDiff.MEAN) > 0, a.toString());
    }
  }

  private static final List<String> PROBS_DIFF =
      List.of(
          RolloutProbsDiff.VALID,
          RolloutProbsDiff.MAX,
          RolloutProbsDiff.MEAN,
          RolloutProbsDiff.STD,
          RolloutProbsDiff.PEARSON);

  /**
   * Rollouts whose log-probs are the trainer's own show no mismatch, whether π_old is passed in or
   * taken from the update's forward pass (a row taken from the wrong place would show).
   */
  @Test
  void rolloutsScoredByTheTrainerItselfShowNoProbabilityMismatch() {
    AdamWConfig smooth = new AdamWConfig(0.9, 0.999, 1e-2, 0.0, 1.0);
    TrainerConfig base = Fixtures.config(8, 4);
    TrainerConfig c =
        TrainerConfig.builder(4, 2, smooth, base.schedule(), base.loss())
            .logProbMicroBatchSize(4)
            .temperature(0.8)
            .useReference(false)
            .build();
    List<TrainSample> batch = new ArrayList<>();
    try (PpoUpdater scorer = new PpoUpdater(device, INITIAL, c);
        PpoUpdater passed = new PpoUpdater(device, INITIAL, c);
        PpoUpdater taken = new PpoUpdater(device, INITIAL, c)) {
      List<TrainSample> raw = Fixtures.batch(95, 2, 4);
      float[][] own = scorer.logProbs(raw, PolicyRole.ACTOR);
      for (int i = 0; i < raw.size(); i++) {
        TrainSample s = raw.get(i);
        batch.add(
            TrainSample.of(
                s.promptUid(), s.promptIds(), s.responseIds(), own[i], s.score(), s.score()));
      }
      for (Map<String, Double> m :
          List.of(grpoStep(passed, batch), taken.update(batch).metrics())) {
        assertEquals(1.0, m.get(RolloutProbsDiff.VALID), m.toString());
        assertEquals(0.0, m.get(RolloutProbsDiff.MAX), 1e-6, m.toString());
        assertEquals(0.0, m.get(RolloutProbsDiff.MEAN), 1e-6, m.toString());
        assertEquals(1.0, m.get(RolloutProbsDiff.PEARSON), 1e-6, m.toString());
      }
    }
  }

  @Test
  void microBatchAccumulationEqualsOneBigBatch() {
    List<TrainSample> batch = Fixtures.batch(31, 4, 4); // 16 samples: 2 mini-batches of 8
    Map<String, Double> reference = null;
    ModelCheckpoint referenceWeights = null;
    for (int micro : new int[] {8, 4, 1}) {
      try (PpoUpdater t = new PpoUpdater(device, INITIAL, Fixtures.klConfig(8, micro))) {
        grpoStep(t, batch);
        Map<String, Double> m = grpoStep(t, batch); // second step: ratio ≠ 1, KL ≠ 0
        if (reference == null) {
          reference = m;
          referenceWeights = t.policyCheckpoint();
          assertTrue(m.get("actor/kl_loss") > 0, "KL to the reference should be positive: " + m);
          continue;
        }
        for (String k : List.of("actor/pg_loss", "actor/entropy", "actor/kl_loss")) {
          assertEquals(reference.get(k), m.get(k), 1e-5, k + " with micro-batches of " + micro);
        }
        assertEquals(reference.get("actor/grad_norm"), m.get("actor/grad_norm"), 1e-4);
        assertWeightsClose(referenceWeights, t.policyCheckpoint(), 2e-6);
      }
    }
  }

  /**
   * VeRL's param_dtype=bf16. Old log-probs and the update's come from the same bf16 programs: an
   * update that recomputes them matches an on-policy one that skips the pass (with old log-probs
   * from f32 the ratio would be off by the bf16 error). The step follows the f32 one to bf16
   * accuracy: measured grad norm 1e-3 relative; weights after one step at lr 1e-3 differ by at most
   * 2e-4 (over 5e-5 for some embedding rows).
   */
  @Test
  void bf16ComputeKeepsOldLogProbsConsistentAndFollowsF32() {
    List<TrainSample> batch = Fixtures.batch(91, 2, 4);
    AdamWConfig smooth = new AdamWConfig(0.9, 0.999, 1e-2, 0.0, 1.0);
    TrainerConfig base = Fixtures.config(8, 4);
    TrainerConfig c =
        TrainerConfig.builder(8, 4, smooth, base.schedule(), base.loss())
            .temperature(0.8)
            .useReference(false)
            .build();
    try (PpoUpdater f32 = new PpoUpdater(device, INITIAL, c);
        PpoUpdater recomputed = bf16(c);
        PpoUpdater skipped = bf16(c)) {
      Map<String, Double> a = grpoStep(f32, batch);
      Map<String, Double> b = grpoStep(recomputed, batch);
      Map<String, Double> s = skipped.update(batch).metrics();
      assertEquals(b.get("actor/pg_loss"), s.get("actor/pg_loss"), 1e-6);
      assertWeightsClose(recomputed.policyCheckpoint(), skipped.policyCheckpoint(), 1e-6);
      // on-policy, so the ratio is 1 and pg_loss is -mean(A) in both precisions
      assertEquals(a.get("actor/pg_loss"), b.get("actor/pg_loss"), 1e-6);
      double norm = a.get("actor/grad_norm");
      assertEquals(norm, b.get("actor/grad_norm"), 1e-2 * norm);
      assertWeightsClose(f32.policyCheckpoint(), recomputed.policyCheckpoint(), 2e-4);
    }
  }

  private static PpoUpdater bf16(TrainerConfig c) {
    return new PpoUpdater(
        device,
        INITIAL,
        c,
        new UpdaterOptions(PolicyOptimizer.defaultRemat(), LoraConfig.NONE, 0, DType.BF16));
  }

  @Test
  void updatesRaiseTheLikelihoodOfRewardedResponses() {
    List<TrainSample> batch = Fixtures.batch(41, 4, 4);
    try (PpoUpdater t = new PpoUpdater(device, INITIAL, Fixtures.config(16, 8))) {
      float[][] before = t.logProbs(batch, PolicyRole.ACTOR);
      for (int i = 0; i < 5; i++) {
        grpoStep(t, batch);
      }
      float[][] after = t.logProbs(batch, PolicyRole.ACTOR);
      double up = 0;
      double down = 0;
      for (int i = 0; i < batch.size(); i++) {
        double delta = sum(after[i]) - sum(before[i]);
        if (batch.get(i).advantages()[0] > 0) {
          up += delta;
        } else {
          down += delta;
        }
      }
      assertTrue(up > 0.5, "rewarded responses should gain log-likelihood: " + up);
      assertTrue(down < -0.5, "penalised responses should lose log-likelihood: " + down);
    }
  }

  @Test
  void theReferencePolicyStaysFrozen() {
    List<TrainSample> batch = Fixtures.batch(51, 2, 4);
    try (PpoUpdater t = new PpoUpdater(device, INITIAL, Fixtures.klConfig(8, 4))) {
      float[][] ref0 = t.logProbs(batch, PolicyRole.REFERENCE);
      grpoStep(t, batch);
      float[][] ref1 = t.logProbs(batch, PolicyRole.REFERENCE);
      float[][] actor = t.logProbs(batch, PolicyRole.ACTOR);
      for (int i = 0; i < batch.size(); i++) {
        assertArrayEquals(ref0[i], ref1[i]);
      }
      assertTrue(Math.abs(sum(actor[0]) - sum(ref1[0])) > 1e-4, "the actor should have moved");
    }
  }

  @Test
  void snapshotsCarryTheCurrentWeights() {
    try (PpoUpdater t = new PpoUpdater(device, INITIAL, Fixtures.config(8, 8))) {
      grpoStep(t, Fixtures.batch(61, 2, 4));
      WeightSnapshot s = t.snapshot(3, WireType.F32);
      assertEquals(3, s.version());
      ModelCheckpoint now = t.policyCheckpoint();
      assertEquals(now.weights().size(), s.entries().size());
      now.weights().forEach((k, v) -> assertArrayEquals(v.data(), s.floats(k), k));
    }
  }

  @Test
  void badBatchesFailWithTheKeyToFix() {
    try (PpoUpdater t = new PpoUpdater(device, INITIAL, Fixtures.config(8, 4))) {
      List<TrainSample> twelve = Fixtures.batch(71, 3, 4);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> t.update(twelve));
      assertTrue(e.getMessage().contains("multiple of miniBatchSize = 8"), e.getMessage());
      List<TrainSample> eight = Fixtures.batch(72, 2, 4);
      List<TrainSample> mixed = new ArrayList<>(eight);
      mixed.set(0, eight.get(0).withOldLogProbs(new float[eight.get(0).responseIds().length]));
      e = assertThrows(IllegalArgumentException.class, () -> t.update(mixed));
      assertTrue(e.getMessage().contains("oldLogProbs"), e.getMessage());
      IllegalStateException noRef =
          assertThrows(IllegalStateException.class, () -> t.logProbs(eight, PolicyRole.REFERENCE));
      assertTrue(noRef.getMessage().contains("useKlLoss"), noRef.getMessage());
    }
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Fixtures.config(8, 3));
    assertTrue(e.getMessage().contains("microBatchSize (3) must divide"), e.getMessage());
  }

  private static double sum(float[] a) {
    double s = 0;
    for (float v : a) {
      s += v;
    }
    return s;
  }
}
