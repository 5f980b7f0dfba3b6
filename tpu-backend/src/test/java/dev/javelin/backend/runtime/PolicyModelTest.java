package dev.javelin.backend.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.TokenBatch;
import dev.javelin.backend.batch.TokenLogProbs;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.checkpoint.safetensors.StorageType;
import dev.javelin.backend.model.HfFixture;
import dev.javelin.backend.model.RopeTable;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.program.ModelPrograms;
import dev.javelin.backend.testing.RelError;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PolicyModelTest {
  @TempDir Path tmp;

  @Test
  void logProbsThroughTheFacadeMatchTransformersDespiteBucketPadding() {
    HfFixture fx = HfFixture.load("qwen2-tiny");
    try (Device ref = Devices.open("ref");
        PolicyModel model = PolicyModel.load(ref, hfDir("qwen2-tiny"))) {
      TokenBatch batch = new TokenBatch(fx.ids(), (Tensor.F32) fx.get("attention_mask"));
      TokenLogProbs out = model.logProbs(batch, fx.scalar("temperature"));
      assertEquals(Shape.of(fx.batch(), fx.length() - 1), out.logp().shape());
      boolean[] valid = new boolean[out.logp().data().length];
      float[] mask = batch.mask().data();
      for (int i = 0; i < valid.length; i++) {
        int r = i / (fx.length() - 1);
        int j = i % (fx.length() - 1);
        valid[i] = mask[r * fx.length() + j + 1] > 0;
      }
      RelError.assertClose("logp", fx.get("logp"), out.logp(), valid, 1e-4);
      RelError.assertClose("entropy", fx.get("entropy"), out.entropy(), valid, 1e-4);
    }
  }

  @Test
  void greedyGenerationWithTheCacheMatchesRepeatedFullForwards() {
    List<int[]> prompts =
        List.of(new int[] {5, 9, 2, 41, 7}, new int[] {3, 80}, new int[] {11, 12, 13});
    int steps = 6;
    try (Device ref = Devices.open("ref");
        PolicyModel model = PolicyModel.load(ref, hfDir("llama-tiny"))) {
      List<int[]> got = GreedyDecode.generate(model, prompts, steps, -1);
      for (int r = 0; r < prompts.size(); r++) {
        assertArrayEquals(naiveGreedy(model, prompts.get(r), steps), got.get(r), "row " + r);
      }
      List<int[]> stopped = GreedyDecode.generate(model, prompts, steps, got.get(1)[2]);
      assertEquals(3, stopped.get(1).length, "row 1 stops at its eos token");
    }
  }

  @Test
  void savesWhatItHoldsAndRefusesOverlongSequences() {
    try (Device ref = Devices.open("ref");
        PolicyModel model = PolicyModel.load(ref, hfDir("qwen2-tiny"))) {
      Path out = tmp.resolve("copy");
      model.save(out, "qwen2", StorageType.F32);
      ModelCheckpoint back = ModelCheckpoint.load(out);
      assertArrayEquals(
          model.checkpoint().weights().get(WeightSpec.EMBED).data(),
          back.weights().get(WeightSpec.EMBED).data());
      assertThrows(IllegalArgumentException.class, () -> model.bucket(65));
      assertEquals(16, model.bucket(3));
      assertEquals(64, model.bucket(64));
    }
  }

  /** Greedy decoding by re-running the whole sequence through the full forward each step. */
  private static int[] naiveGreedy(PolicyModel model, int[] prompt, int steps) {
    List<Integer> seq = new ArrayList<>();
    for (int t : prompt) {
      seq.add(t);
    }
    int[] out = new int[steps];
    ModelCheckpoint ck = model.checkpoint();
    for (int s = 0; s < steps; s++) {
      int t = seq.size();
      int[] ids = seq.stream().mapToInt(Integer::intValue).toArray();
      Map<String, Tensor> in = new HashMap<>(ck.ordered());
      in.put(ModelPrograms.INPUT_IDS, new Tensor.I32(Shape.of(1, t), ids));
      in.put(ModelPrograms.POSITIONS, HfFixture.positions(1, t));
      float[] ones = new float[t];
      Arrays.fill(ones, 1f);
      in.put(ModelPrograms.ATTENTION_MASK, new Tensor.F32(Shape.of(1, t), ones));
      RopeTable rope = RopeTable.compute(ck.config(), t);
      in.put(ModelPrograms.ROPE_COS, rope.cos());
      in.put(ModelPrograms.ROPE_SIN, rope.sin());
      Tensor.F32 logits =
          (Tensor.F32)
              HfFixture.run(model.device(), ModelPrograms.forward(ck.config(), 1, t, t), in).get(0);
      int v = ck.config().vocabSize();
      out[s] = GreedyDecode.argmax(logits.data(), (t - 1) * v, v);
      seq.add(out[s]);
    }
    return out;
  }

  private static Path hfDir(String name) {
    return Path.of(System.getProperty("javelin.root"), "tpu-backend/src/test/resources/hf", name);
  }
}
