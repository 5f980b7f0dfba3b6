package dev.javelin.backend.runtime;

import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.model.HfFixture;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.RopeTable;
import dev.javelin.backend.program.ModelPrograms;
import dev.javelin.backend.program.SlotPrograms;
import dev.javelin.backend.testing.RelError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Decoding with the KV cache gives the logits of a full forward over the same tokens: ragged
 * prompts are prefilled, then every row decodes the same forced tokens into shared cache slots
 * (leaving masked holes after short prompts) at its own rotary positions.
 */
class KvCacheDecodeTest {
  private static final int[][] PROMPTS = {{5, 9, 2, 41, 7}, {3, 3, 80}, {11, 12, 13, 14}};
  private static final int[] FORCED = {17, 4, 60, 33};
  private static final int T = 5;
  private static final int S = 12;

  @ParameterizedTest
  @ValueSource(strings = {"ref", "cpu"})
  void prefillThenDecodeMatchesFullForward(String device) {
    HfFixture fx = HfFixture.load("qwen2-tiny");
    ModelConfig c = fx.config();
    int b = PROMPTS.length;
    RopeTable rope = RopeTable.compute(c, S);
    try (Device ref = Devices.open(device)) {
      Map<String, Tensor> in = new HashMap<>(fx.checkpoint().ordered());
      in.put(ModelPrograms.ROPE_COS, rope.cos());
      in.put(ModelPrograms.ROPE_SIN, rope.sin());
      in.putAll(promptInputs());
      List<Tensor> pre = HfFixture.run(ref, ModelPrograms.prefill(c, b, T, S, S), in);
      assertRowLogits("prefill", ref, fx, 0, pre.get(0));
      List<Tensor> caches = pre.subList(2, pre.size());
      Program decode = SlotPrograms.decode(c, b, S, S);
      for (int j = 0; j < FORCED.length; j++) {
        Map<String, Tensor> step = new HashMap<>(in);
        int[] ids = new int[b];
        int[] pos = new int[b];
        for (int r = 0; r < b; r++) {
          ids[r] = FORCED[j];
          pos[r] = PROMPTS[r].length + j;
        }
        step.put(ModelPrograms.INPUT_IDS, new Tensor.I32(Shape.of(b, 1), ids));
        step.put(ModelPrograms.POSITIONS, new Tensor.I32(Shape.of(b, 1), pos));
        step.put(ModelPrograms.ATTENTION_MASK, new Tensor.F32(Shape.of(b, 1), ones(b)));
        for (int i = 0; i < c.layers(); i++) {
          step.put(ModelPrograms.cacheKey(i), caches.get(2 * i));
          step.put(ModelPrograms.cacheValue(i), caches.get(2 * i + 1));
        }
        List<Tensor> out = HfFixture.run(ref, decode, step);
        assertRowLogits("decode step " + j, ref, fx, j + 1, out.get(0));
        caches = out.subList(1, out.size());
      }
    }
  }

  /** Compares (B, V) logits with a full forward over prompt + the first {@code forced} tokens. */
  private static void assertRowLogits(
      String what, Device ref, HfFixture fx, int forced, Tensor actual) {
    ModelConfig c = fx.config();
    int b = PROMPTS.length;
    int len = T + forced;
    int[] ids = new int[b * len];
    float[] mask = new float[b * len];
    int[] last = new int[b];
    for (int r = 0; r < b; r++) {
      List<Integer> seq = new ArrayList<>();
      for (int tok : PROMPTS[r]) {
        seq.add(tok);
      }
      for (int j = 0; j < forced; j++) {
        seq.add(FORCED[j]);
      }
      for (int t = 0; t < seq.size(); t++) {
        ids[r * len + t] = seq.get(t);
        mask[r * len + t] = 1;
      }
      last[r] = seq.size() - 1;
    }
    RopeTable rope = RopeTable.compute(c, len);
    Map<String, Tensor> in = new HashMap<>(fx.checkpoint().ordered());
    in.put(ModelPrograms.INPUT_IDS, new Tensor.I32(Shape.of(b, len), ids));
    in.put(ModelPrograms.POSITIONS, HfFixture.positions(b, len));
    in.put(ModelPrograms.ATTENTION_MASK, new Tensor.F32(Shape.of(b, len), mask));
    in.put(ModelPrograms.ROPE_COS, rope.cos());
    in.put(ModelPrograms.ROPE_SIN, rope.sin());
    Tensor.F32 full =
        (Tensor.F32) HfFixture.run(ref, ModelPrograms.forward(c, b, len, len), in).get(0);
    int v = c.vocabSize();
    float[] expected = new float[b * v];
    for (int r = 0; r < b; r++) {
      System.arraycopy(full.data(), (r * len + last[r]) * v, expected, r * v, v);
    }
    RelError.assertClose(what, new Tensor.F32(Shape.of(b, v), expected), actual, 1e-4);
  }

  private static Map<String, Tensor> promptInputs() {
    int b = PROMPTS.length;
    int[] ids = new int[b * T];
    float[] mask = new float[b * T];
    for (int r = 0; r < b; r++) {
      for (int t = 0; t < PROMPTS[r].length; t++) {
        ids[r * T + t] = PROMPTS[r][t];
        mask[r * T + t] = 1;
      }
    }
    return Map.of(
        ModelPrograms.INPUT_IDS, new Tensor.I32(Shape.of(b, T), ids),
        ModelPrograms.POSITIONS, HfFixture.positions(b, T),
        ModelPrograms.ATTENTION_MASK, new Tensor.F32(Shape.of(b, T), mask));
  }

  private static float[] ones(int n) {
    float[] a = new float[n];
    Arrays.fill(a, 1f);
    return a;
  }
}
