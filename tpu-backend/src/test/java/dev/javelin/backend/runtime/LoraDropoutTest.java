package dev.javelin.backend.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.TokenBatch;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.model.HfFixture;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.model.LoraDropout;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.ModelWeights;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.LrSchedule;
import dev.javelin.backend.testing.MeanNll;
import dev.javelin.backend.testing.RelError;
import dev.javelin.backend.testing.TestAdapters;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * LoRA dropout: the adapters see {@code mask ⊙ x} with mask entries 0 or 1/(1-p) in train steps
 * only; masks are seeded per step, so a step is reproducible, and the backward pass agrees under
 * every rematerialisation policy.
 */
class LoraDropoutTest {
  private static final Set<String> TARGETS = Set.of("q_proj", "o_proj", "up_proj", "down_proj");
  private static final AdamWConfig ADAM = new AdamWConfig(0.9, 0.999, 1e-8, 0.01, 1.0);

  @Test
  void theAdapterSeesTheInputTimesAMaskOfZerosAndOneOverKeep() {
    HfFixture fx = HfFixture.load("qwen2-tiny");
    ModelConfig c = fx.config();
    LoraConfig lora = new LoraConfig(2, 6, TARGETS, 0.25);
    Map<String, Tensor.F32> ad = trainedAdapters(lora, c);
    int in = c.heads() * c.headDim();
    GraphBuilder g = new GraphBuilder("o_proj_dropout");
    ModelWeights w = ModelWeights.declare(g, c, DType.F32, lora);
    Node x = g.parameter("x", DType.F32, Shape.of(1, 16, in));
    Program p = g.build(w.linear(g, 0, "self_attn.o_proj", x));
    Map<String, Tensor.F32> masks = LoraDropout.masks(lora, c, p, 5, 0, 0);
    Tensor.F32 mask = masks.get(lora.adapters(c).get(1).dropoutMask()); // layer 0's o_proj
    assertEquals(Shape.of(1, 16, in), mask.shape());
    float keep = (float) (1 / 0.75);
    int zeros = 0;
    for (Tensor.F32 m : masks.values()) {
      for (float v : m.data()) {
        assertTrue(v == 0f || v == keep, "mask entry " + v);
        zeros += v == 0f ? 1 : 0;
      }
    }
    int total = masks.values().stream().mapToInt(m -> m.data().length).sum();
    assertEquals(0.25, zeros / (double) total, 0.05, "share of dropped entries");

    float[] xs = new float[16 * in];
    Random r = new Random(4);
    for (int i = 0; i < xs.length; i++) {
      xs[i] = (float) (2 * r.nextDouble() - 1);
    }
    Map<String, Tensor> named = new HashMap<>(fx.checkpoint().weights());
    named.putAll(ad);
    named.putAll(masks);
    named.put("x", new Tensor.F32(Shape.of(1, 16, in), xs));
    float[] y;
    try (Device cpu = Devices.open("cpu")) {
      y = ((Tensor.F32) HfFixture.run(cpu, p, named).get(0)).data();
    }
    // By hand: y = W x + (alpha / r) · B (A (mask ⊙ x)) for each of the 16 positions.
    LoraConfig.Adapter a = lora.adapters(c).get(1);
    float[] wo = fx.checkpoint().weights().get(a.base()).data(); // (D, in)
    float[] am = ad.get(a.a()).data();
    float[] bm = ad.get(a.b()).data();
    int d = c.hidden();
    for (int t = 0; t < 16; t++) {
      double[] ax = new double[2];
      for (int k = 0; k < 2; k++) {
        for (int j = 0; j < in; j++) {
          ax[k] += am[k * in + j] * (double) xs[t * in + j] * mask.data()[t * in + j];
        }
      }
      for (int o = 0; o < d; o++) {
        double want = 3.0 * (bm[o * 2] * ax[0] + bm[o * 2 + 1] * ax[1]);
        for (int j = 0; j < in; j++) {
          want += wo[o * in + j] * (double) xs[t * in + j];
        }
        assertEquals(want, y[t * d + o], 1e-5 * (1 + Math.abs(want)), "t " + t + " o " + o);
      }
    }
  }

  @Test
  void dropoutChangesTheStepReproduciblyAndNeverTheLogProbs() {
    LoraConfig none = new LoraConfig(2, 6, TARGETS);
    LoraConfig drop = new LoraConfig(2, 6, TARGETS, 0.3);
    Step plain = step(none, 11, Remat.ELEMENTWISE);
    assertEquals(plain, step(new LoraConfig(2, 6, TARGETS, 0.0), 11, Remat.ELEMENTWISE));
    Step a = step(drop, 11, Remat.ELEMENTWISE);
    assertEquals(a, step(drop, 11, Remat.ELEMENTWISE), "same seed, same step");
    assertNotEquals(a.gradNorm(), plain.gradNorm(), "dropout changes the gradient");
    assertNotEquals(a.gradNorm(), step(drop, 12, Remat.ELEMENTWISE).gradNorm(), "another seed");
    assertEquals(plain.logpBefore(), a.logpBefore(), "log-probs never drop");
    Step blocks = step(drop, 11, Remat.BLOCKS);
    assertEquals(a.gradNorm(), blocks.gradNorm(), 1e-5 * a.gradNorm(), "remat blocks");
    RelError.assertClose(
        "adapters after a step, blocks vs elementwise",
        new Tensor.F32(Shape.of(a.adapters().length), a.adapters()),
        new Tensor.F32(Shape.of(blocks.adapters().length), blocks.adapters()),
        1e-5);
  }

  /** One optimizer step's grad norm, the adapters after it and the log-probs before it. */
  private record Step(double gradNorm, float[] adapters, List<Float> logpBefore) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Step s
          && s.gradNorm == gradNorm
          && java.util.Arrays.equals(s.adapters, adapters)
          && s.logpBefore.equals(logpBefore);
    }

    @Override
    public int hashCode() {
      return Double.hashCode(gradNorm);
    }
  }

  private static Step step(LoraConfig lora, long seed, Remat remat) {
    HfFixture fx = HfFixture.load("qwen2-tiny");
    TokenBatch batch = new TokenBatch(fx.ids(), (Tensor.F32) fx.get("attention_mask"));
    try (Device cpu = Devices.open("cpu");
        PolicyModel model = PolicyModel.of(cpu, fx.checkpoint())) {
      model.attachAdapters(lora, trainedAdapters(lora, fx.config()));
      List<Float> before = boxed(model.logProbs(batch, 1f).logp().data());
      double norm;
      try (PolicyOptimizer opt =
          new PolicyOptimizer(
              model,
              ADAM,
              new LrSchedule.Constant(0.01),
              new PolicyOptimizer.Options(remat, seed, 0))) {
        norm = opt.step(List.of(batch), 1f, (m, st) -> MeanNll.of(st)).gradNorm();
      }
      float[] all =
          model.adapterTensors().values().stream()
              .map(Tensor.F32::data)
              .reduce(new float[0], LoraDropoutTest::concat);
      assertFalse(Double.isNaN(norm));
      return new Step(norm, all, before);
    }
  }

  /** Adapters with a non-zero B, so both A and B get gradients through the dropped input. */
  private static Map<String, Tensor.F32> trainedAdapters(LoraConfig lora, ModelConfig c) {
    return TestAdapters.withNonZeroB(lora, c, 3, 9, 0.1);
  }

  private static List<Float> boxed(float[] x) {
    Float[] out = new Float[x.length];
    for (int i = 0; i < x.length; i++) {
      out[i] = x[i];
    }
    return List.of(out);
  }

  private static float[] concat(float[] a, float[] b) {
    float[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
