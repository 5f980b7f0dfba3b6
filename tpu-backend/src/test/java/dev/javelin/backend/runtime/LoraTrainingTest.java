package dev.javelin.backend.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.TokenBatch;
import dev.javelin.backend.batch.TokenLogProbs;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.model.HfFixture;
import dev.javelin.backend.model.LoraAdapters;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.LrSchedule;
import dev.javelin.backend.testing.RelError;
import dev.javelin.backend.testing.TestAdapters;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** LoRA on the policy: fresh adapters change nothing, a step trains only A and B. */
class LoraTrainingTest {
  private static final LoraConfig LORA =
      new LoraConfig(4, 8, Set.of("q_proj", "v_proj", "o_proj", "up_proj", "down_proj"));

  @Test
  void freshAdaptersLeaveLogProbsEqualToTheBase() {
    HfFixture fx = HfFixture.load("qwen2-tiny");
    TokenBatch batch = new TokenBatch(fx.ids(), (Tensor.F32) fx.get("attention_mask"));
    try (Device cpu = Devices.open("cpu");
        PolicyModel model = PolicyModel.of(cpu, fx.checkpoint())) {
      TokenLogProbs base = model.logProbs(batch, 0.7f);
      model.attachAdapters(LORA, LoraAdapters.init(LORA, fx.config(), 3));
      TokenLogProbs lora = model.logProbs(batch, 0.7f);
      assertArrayEquals(base.logp().data(), lora.logp().data(), 0f);
      assertArrayEquals(base.logp().data(), model.baseLogProbs(batch, 0.7f).logp().data(), 0f);
    }
  }

  @Test
  void aStepTrainsOnlyTheAdaptersAndTheMergedWeightsReproduceThePolicy() {
    HfFixture fx = HfFixture.load("qwen2-tiny");
    TokenBatch batch = new TokenBatch(fx.ids(), (Tensor.F32) fx.get("attention_mask"));
    Tensor.F32 resp = (Tensor.F32) fx.get("response_mask");
    AdamWConfig adam = new AdamWConfig(0.9, 0.999, 1e-8, 0.01, 1.0);
    try (Device cpu = Devices.open("cpu");
        PolicyModel model = PolicyModel.of(cpu, fx.checkpoint())) {
      model.attachAdapters(LORA, LoraAdapters.init(LORA, fx.config(), 3));
      Map<String, Tensor.F32> before = model.adapterTensors();
      try (PolicyOptimizer opt = new PolicyOptimizer(model, adam, new LrSchedule.Constant(0.05))) {
        assertEquals(2 * before.size(), opt.optimizerState().size());
        for (int i = 0; i < 2; i++) {
          assertTrue(opt.step(List.of(batch), 1f, (m, st) -> nll(st, resp)).applied());
        }
      }
      ModelCheckpoint after = model.checkpoint();
      fx.checkpoint()
          .weights()
          .forEach((k, w) -> assertArrayEquals(w.data(), after.weights().get(k).data(), 0f, k));
      Map<String, Tensor.F32> trained = model.adapterTensors();
      for (LoraConfig.Adapter a : LORA.adapters(fx.config())) {
        assertFalse(allZero(trained.get(a.b()).data()), a.b() + " stayed zero");
        assertFalse(
            java.util.Arrays.equals(before.get(a.a()).data(), trained.get(a.a()).data()), a.a());
      }
      TokenLogProbs tuned = model.logProbs(batch, 1f);
      TokenLogProbs base = model.baseLogProbs(batch, 1f);
      assertTrue(RelError.of(base.logp(), tuned.logp(), null) > 1e-3, "the step moved the policy");
      try (PolicyModel merged = PolicyModel.of(cpu, model.mergedCheckpoint())) {
        RelError.assertClose("merged logp", tuned.logp(), merged.logProbs(batch, 1f).logp(), 1e-5);
      }
    }
  }

  @Test
  void decodingThroughAdaptersMatchesDecodingTheMergedWeights() {
    HfFixture fx = HfFixture.load("qwen2-tiny");
    Map<String, Tensor.F32> ad = TestAdapters.withNonZeroB(LORA, fx.config(), 5, 7, 0.2);
    List<int[]> prompts = List.of(new int[] {3, 17, 9, 4}, new int[] {8, 2}, new int[] {5});
    try (Device cpu = Devices.open("cpu");
        PolicyModel unmerged = PolicyModel.of(cpu, fx.checkpoint());
        PolicyModel merged =
            PolicyModel.of(
                cpu,
                new ModelCheckpoint(
                    fx.config(),
                    LoraAdapters.merge(LORA, fx.config(), fx.checkpoint().weights(), ad)));
        PolicyModel base = PolicyModel.of(cpu, fx.checkpoint())) {
      unmerged.attachAdapters(LORA, ad);
      List<int[]> want = GreedyDecode.generate(merged, prompts, 12, -1);
      List<int[]> got = GreedyDecode.generate(unmerged, prompts, 12, -1);
      List<int[]> plain = GreedyDecode.generate(base, prompts, 12, -1);
      boolean moved = false;
      for (int r = 0; r < prompts.size(); r++) {
        assertArrayEquals(want.get(r), got.get(r), "row " + r);
        moved |= !java.util.Arrays.equals(want.get(r), plain.get(r));
      }
      assertTrue(moved, "the adapters change what is generated");
    }
  }

  private static PolicyOptimizer.Cotangents nll(TokenLogProbs st, Tensor.F32 resp) {
    float[] d = new float[resp.data().length];
    double loss = 0;
    for (int j = 0; j < d.length; j++) {
      d[j] = -resp.data()[j];
      loss -= resp.data()[j] * st.logp().data()[j];
    }
    Shape s = resp.shape();
    return new PolicyOptimizer.Cotangents(loss, new Tensor.F32(s, d), new Tensor.F32(s, d.clone()));
  }

  private static boolean allZero(float[] x) {
    for (float v : x) {
      if (v != 0) {
        return false;
      }
    }
    return true;
  }
}
