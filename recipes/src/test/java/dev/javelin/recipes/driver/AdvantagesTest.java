package dev.javelin.recipes.driver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.javelin.grpo.AlgorithmConfig;
import dev.javelin.sampler.FinishReason;
import dev.javelin.sampler.Rollout;
import dev.javelin.sampler.SamplingParams;
import dev.javelin.trainer.TrainSample;
import java.util.List;
import org.junit.jupiter.api.Test;

class AdvantagesTest {
  private static Rollout rollout(String uid, int length) {
    return new Rollout(
        uid + "#",
        uid,
        new int[] {1, 2},
        new int[length],
        new float[length],
        FinishReason.STOP,
        0,
        0);
  }

  @Test
  void grpoNormalisesWithinEachGroupAndBroadcastsOverTokens() {
    List<Rollout> rollouts =
        List.of(rollout("a", 2), rollout("a", 3), rollout("b", 1), rollout("b", 4));
    double[] scores = {1, 0, 0, 0};
    Advantages.Result r = Advantages.compute(rollouts, scores, AlgorithmConfig.defaults());
    List<TrainSample> s = r.samples();
    // group a: mean 0.5, unbiased std 0.7071 -> ±0.7071; group b: all equal -> 0
    double a = 0.5 / (Math.sqrt(0.5) + AlgorithmConfig.EPSILON);
    assertArrayEquals(new double[] {a, a}, s.get(0).advantages(), 1e-9);
    assertArrayEquals(new double[] {-a, -a, -a}, s.get(1).advantages(), 1e-9);
    assertArrayEquals(new double[] {0}, s.get(2).advantages(), 1e-12);
    assertEquals(4, s.get(3).advantages().length);
    assertEquals(1.0, s.get(0).score());
  }

  @Test
  void theStageKeepsLogProbsTakenBeforeItAndSetsOnlyTheAdvantages() {
    List<Rollout> rollouts = List.of(rollout("a", 2), rollout("a", 2));
    List<TrainSample> before = Advantages.samples(rollouts, new double[] {1, 0});
    assertArrayEquals(new double[] {0, 0}, before.get(0).advantages());
    float[] old = {-0.5f, -0.25f};
    float[] ref = {-0.75f, -1f};
    List<TrainSample> withLogProbs =
        List.of(before.get(0).withOldLogProbs(old).withRefLogProbs(ref), before.get(1));
    Advantages.Result r = Advantages.compute(withLogProbs, AlgorithmConfig.defaults(), in -> in);
    assertArrayEquals(old, r.samples().get(0).oldLogProbs());
    assertArrayEquals(ref, r.samples().get(0).refLogProbs());
    assertEquals(
        Advantages.compute(rollouts, new double[] {1, 0}, AlgorithmConfig.defaults())
            .samples()
            .get(0),
        r.samples().get(0).withOldLogProbs(null).withRefLogProbs(null));
  }

  @Test
  void requestSeedsAreStableAndDistinct() {
    RequestFactory f = new RequestFactory(7);
    assertEquals(f.seedFor("train", 3, 1, 2), new RequestFactory(7).seedFor("train", 3, 1, 2));
    assertEquals(0, f.requests("train", 1, List.of(), 8, SamplingParams.greedy(4)).size());
    org.junit.jupiter.api.Assertions.assertNotEquals(
        f.seedFor("train", 3, 1, 2), f.seedFor("val", 3, 1, 2));
  }
}
