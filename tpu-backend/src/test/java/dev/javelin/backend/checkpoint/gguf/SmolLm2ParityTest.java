package dev.javelin.backend.checkpoint.gguf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.runtime.GreedyDecode;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.backend.runtime.SlotDecoder;
import dev.javelin.backend.testing.SmolLm2;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real SmolLM2-135M-Instruct GGUF against transformers (tools/smollm2_parity.py): logits at the
 * last positions of 4 prompts within 1e-4 of the position's largest |logit|, and the 64-token
 * greedy continuations of 8 GSM8K prompts identical. Token ids come from the fixture.
 */
class SmolLm2ParityTest {
  private static ModelCheckpoint checkpoint;
  private static JsonNode fixture;

  @BeforeAll
  static void load() throws IOException {
    Path gguf = SmolLm2.gguf();
    long t0 = System.nanoTime();
    checkpoint = GgufModel.load(gguf);
    System.out.printf("SmolLM2 GGUF load: %.2f s%n", (System.nanoTime() - t0) / 1e9);
    fixture =
        new ObjectMapper()
            .readTree(
                Path.of(
                        System.getProperty("javelin.root"),
                        "tpu-backend/src/test/resources/smollm2/parity.json")
                    .toFile());
  }

  @Test
  void configComesFromTheMetadata() {
    ModelConfig c = checkpoint.config();
    assertEquals(49152, c.vocabSize());
    assertEquals(576, c.hidden());
    assertEquals(1536, c.intermediate());
    assertEquals(30, c.layers());
    assertEquals(9, c.heads());
    assertEquals(3, c.kvHeads());
    assertEquals(64, c.headDim());
    assertEquals(100_000.0, c.ropeTheta());
    assertTrue(c.tieWordEmbeddings());
    assertFalse(c.qkvBias());
    assertEquals(8192, c.maxPositions());
  }

  @Test
  void logitsMatchTransformers() {
    try (Device cpu = Devices.open("cpu");
        PolicyModel policy = PolicyModel.of(cpu, small(checkpoint))) {
      double worst = 0;
      int v = checkpoint.config().vocabSize();
      for (JsonNode prompt : fixture.get("logits")) {
        int[] tokens = ints(prompt.get("tokens"));
        List<int[]> prefixes = new ArrayList<>();
        for (JsonNode pos : prompt.get("positions")) {
          prefixes.add(Arrays.copyOf(tokens, pos.get("position").asInt() + 1));
        }
        int longest = prefixes.stream().mapToInt(p -> p.length).max().orElseThrow();
        try (SlotDecoder s = SlotDecoder.open(policy, prefixes.size(), longest + 1)) {
          Tensor.F32 logits = s.prefill(prefixes);
          int row = 0;
          for (JsonNode pos : prompt.get("positions")) {
            int[] ids = ints(pos.get("ids"));
            double scale = pos.get("max_abs").asDouble();
            for (int k = 0; k < ids.length; k++) {
              double want = pos.get("logits").get(k).asDouble();
              double got = logits.data()[row * v + ids[k]];
              worst = Math.max(worst, Math.abs(got - want) / scale);
            }
            row++;
          }
        }
      }
      System.out.printf("SmolLM2 logit parity: max |Δ| / max|logit| = %.3g%n", worst);
      assertTrue(worst <= 1e-4, "relative logit error " + worst);
    }
  }

  @Test
  void greedyContinuationsMatchTransformers() {
    try (Device cpu = Devices.open("cpu");
        PolicyModel policy = PolicyModel.of(cpu, small(checkpoint))) {
      List<int[]> prompts = new ArrayList<>();
      List<int[]> want = new ArrayList<>();
      for (JsonNode g : fixture.get("greedy")) {
        prompts.add(ints(g.get("prompt")));
        want.add(ints(g.get("continuation")));
      }
      long t0 = System.nanoTime();
      List<int[]> got = GreedyDecode.generate(policy, prompts, 64, -1);
      System.out.printf("SmolLM2 greedy 8x64: %.2f s%n", (System.nanoTime() - t0) / 1e9);
      for (int i = 0; i < want.size(); i++) {
        assertArrayEquals(want.get(i), got.get(i), "greedy continuation of GSM8K prompt " + i);
      }
    }
  }

  /** 8k positions would size the KV cache for nothing; the fixture's sequences are shorter. */
  private static ModelCheckpoint small(ModelCheckpoint ck) {
    return new ModelCheckpoint(ck.config().withMaxPositions(512), ck.weights());
  }

  private static int[] ints(JsonNode a) {
    int[] out = new int[a.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = a.get(i).asInt();
    }
    return out;
  }
}
