package dev.javelin.backend.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.model.HfFixture;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.optim.LrSchedule;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.backend.runtime.PolicyOptimizer;
import dev.javelin.backend.runtime.PolicyOptimizerTest;
import dev.javelin.backend.testing.RelError;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The prompt-sharing layout against the dense one (itself checked against transformers in {@link
 * HfParityTest}): the same log-probs, entropies and gradients, from prompts run once per group.
 */
class PrefixBatchTest {
  /** 3 prompts of 2, 5 and 7 tokens, 4 responses each (0–6 tokens), in a shuffled order. */
  private record Pairs(List<int[]> prompts, List<int[]> responses) {
    static Pairs random(int vocab, long seed) {
      Random rnd = new Random(seed);
      int[][] distinct = {ids(rnd, vocab, 2), ids(rnd, vocab, 5), ids(rnd, vocab, 7)};
      List<int[]> prompts = new ArrayList<>();
      List<int[]> responses = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        int[] p = distinct[(i * 7) % 3];
        prompts.add(p.clone()); // equal by content, not by identity
        responses.add(ids(rnd, vocab, i % 7));
      }
      return new Pairs(prompts, responses);
    }

    /**
     * 17 distinct prompts (1–18 tokens) with 2 responses each (0–18 tokens): G, P and R all land
     * past 16, so the program runs padded prompt rows, prompt columns and response columns.
     */
    static Pairs padded(int vocab, long seed) {
      Random rnd = new Random(seed);
      List<int[]> prompts = new ArrayList<>();
      List<int[]> responses = new ArrayList<>();
      for (int g = 0; g < 17; g++) {
        int[] p = ids(rnd, vocab, 1 + (g * 5) % 18);
        for (int k = 0; k < 2; k++) {
          prompts.add(p);
          responses.add(ids(rnd, vocab, (g + 9 * k) % 19));
        }
      }
      return new Pairs(prompts, responses);
    }

    TokenBatch dense() {
      List<int[]> rows = new ArrayList<>();
      for (int i = 0; i < prompts.size(); i++) {
        rows.add(concat(prompts.get(i), responses.get(i)));
      }
      return TokenBatch.rightPadded(rows, 2);
    }

    /** Dense (B, T-1) outputs as (B, R) response columns. */
    Tensor.F32 responseColumns(Tensor.F32 dense, int r) {
      int t1 = dense.shape().dim(1);
      float[] out = new float[prompts.size() * r];
      for (int i = 0; i < prompts.size(); i++) {
        int from = i * t1 + prompts.get(i).length - 1;
        System.arraycopy(dense.data(), from, out, i * r, responses.get(i).length);
      }
      return new Tensor.F32(Shape.of(prompts.size(), r), out);
    }

    /** (B, R) response cotangents placed at the dense (B, T-1) columns. */
    Tensor.F32 denseColumns(Tensor.F32 cols, int t1) {
      int r = cols.shape().dim(1);
      float[] out = new float[prompts.size() * t1];
      for (int i = 0; i < prompts.size(); i++) {
        int to = i * t1 + prompts.get(i).length - 1;
        System.arraycopy(cols.data(), i * r, out, to, responses.get(i).length);
      }
      return new Tensor.F32(Shape.of(prompts.size(), t1), out);
    }

    float[] mask(int r) {
      float[] m = new float[prompts.size() * r];
      for (int i = 0; i < prompts.size(); i++) {
        java.util.Arrays.fill(m, i * r, i * r + responses.get(i).length, 1f);
      }
      return m;
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"qwen2-tiny", "llama-tiny", "gemma3-tiny"})
  void logProbsAndEntropiesEqualTheDenseLayout(String fixture) {
    HfFixture fx = HfFixture.load(fixture);
    Pairs pairs = Pairs.random(fx.config().vocabSize(), 7);
    PrefixBatch shared = PrefixBatch.of(pairs.prompts(), pairs.responses());
    assertEquals(3, shared.groups());
    assertSameAsDense(fx, pairs, shared, 0.7f);
  }

  private static void assertSameAsDense(HfFixture fx, Pairs pairs, PrefixBatch shared, float temp) {
    int r = shared.scoredColumns();
    try (Device cpu = Devices.open("cpu");
        PolicyModel model = PolicyModel.of(cpu, fx.checkpoint())) {
      TokenLogProbs a = model.logProbs(shared, temp);
      TokenLogProbs d = model.logProbs(pairs.dense(), temp);
      float[] mask = pairs.mask(r);
      assertMaskedClose("logp", pairs.responseColumns(d.logp(), r), a.logp(), mask);
      assertMaskedClose("entropy", pairs.responseColumns(d.entropy(), r), a.entropy(), mask);
    }
  }

  @Test
  void paddedGroupsPromptsAndResponsesChangeNothing() {
    HfFixture fx = HfFixture.load("qwen2-tiny");
    Pairs pairs = Pairs.padded(fx.config().vocabSize(), 5);
    PrefixBatch shared = PrefixBatch.of(pairs.prompts(), pairs.responses());
    assertEquals("g24_p24_b34_r24", shared.atBucket(fx.config()).shapeKey());
    assertSameAsDense(fx, pairs, shared, 1f);
  }

  @ParameterizedTest
  @ValueSource(strings = {"qwen2-tiny", "llama-tiny", "gemma3-tiny"})
  void gradientsEqualTheDenseLayout(String fixture) {
    assertGradientsEqualTheDenseLayout(fixture, DType.F32, 2e-3);
  }

  /**
   * The prefix layout computing in bf16 (cast from the f32 weights in the program) against the
   * dense layout in bf16: the same roundings in a different order of rows and keys. Measured worst
   * gradient difference 1.2e-2 (a k_proj bias), a third of the tolerance.
   */
  @Test
  void bf16GradientsFollowTheDenseLayout() {
    assertGradientsEqualTheDenseLayout("qwen2-tiny", DType.BF16, 0.04);
  }

  private static void assertGradientsEqualTheDenseLayout(
      String fixture, DType compute, double tol) {
    HfFixture fx = HfFixture.load(fixture);
    Pairs pairs = Pairs.random(fx.config().vocabSize(), 11);
    PrefixBatch shared = PrefixBatch.of(pairs.prompts(), pairs.responses());
    int r = shared.scoredColumns();
    int b = shared.rows();
    // L = Σ w·logp + u·H over response tokens, random w and u
    Random rnd = new Random(3);
    float[] mask = pairs.mask(r);
    float[] w = new float[b * r];
    float[] u = new float[b * r];
    for (int i = 0; i < w.length; i++) {
      w[i] = mask[i] * (float) rnd.nextGaussian();
      u[i] = mask[i] * (float) rnd.nextGaussian();
    }
    Tensor.F32 dLogp = new Tensor.F32(Shape.of(b, r), w);
    Tensor.F32 dEnt = new Tensor.F32(Shape.of(b, r), u);
    TokenBatch dense = pairs.dense();
    int t1 = dense.scoredColumns();
    ModelCheckpoint viaShared =
        stepOnce(fx, shared, compute, (i, stats) -> new PolicyOptimizer.Cotangents(0, dLogp, dEnt));
    ModelCheckpoint viaDense =
        stepOnce(
            fx,
            dense,
            compute,
            (i, stats) ->
                new PolicyOptimizer.Cotangents(
                    0, pairs.denseColumns(dLogp, t1), pairs.denseColumns(dEnt, t1)));
    for (WeightSpec s : WeightSpec.layout(fx.config())) {
      RelError.assertClose(
          s.name(),
          PolicyOptimizerTest.recoveredGradient(fx, viaDense, s),
          PolicyOptimizerTest.recoveredGradient(fx, viaShared, s),
          tol);
    }
  }

  @Test
  void bucketsAreExactUpToSixteenThenTwoPerOctave() {
    int[] want = {1, 2, 9, 16, 24, 24, 32, 48, 64, 96, 128};
    int[] n = {1, 2, 9, 16, 17, 24, 25, 33, 64, 65, 97};
    for (int i = 0; i < n.length; i++) {
      assertEquals(want[i], PrefixBatch.bucket(n[i]), "bucket(" + n[i] + ")");
    }
  }

  @Test
  void rejectsEmptyPromptsAndMismatchedLists() {
    assertThrows(
        IllegalArgumentException.class,
        () -> PrefixBatch.of(List.of(new int[0]), List.of(new int[] {1})));
    assertThrows(
        IllegalArgumentException.class, () -> PrefixBatch.of(List.of(new int[] {1}), List.of()));
  }

  private static ModelCheckpoint stepOnce(
      HfFixture fx, SequenceBatch batch, DType compute, PolicyOptimizer.HostLoss loss) {
    try (Device cpu = Devices.open("cpu");
        PolicyModel model = PolicyModel.of(cpu, fx.checkpoint(), compute);
        PolicyOptimizer t =
            new PolicyOptimizer(
                model,
                PolicyOptimizerTest.INVERTIBLE,
                new LrSchedule.Constant(PolicyOptimizerTest.LR))) {
      t.step(List.of(batch), 0.7f, loss);
      return model.checkpoint();
    }
  }

  private static void assertMaskedClose(
      String what, Tensor.F32 want, Tensor.F32 got, float[] mask) {
    assertEquals(want.shape(), got.shape(), what);
    for (int i = 0; i < mask.length; i++) {
      if (mask[i] > 0) {
        assertEquals(want.data()[i], got.data()[i], 2e-5, what + "[" + i + "]");
      }
    }
  }

  private static int[] ids(Random rnd, int vocab, int n) {
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = 1 + rnd.nextInt(vocab - 1);
    }
    return out;
  }

  private static int[] concat(int[] a, int[] b) {
    int[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
