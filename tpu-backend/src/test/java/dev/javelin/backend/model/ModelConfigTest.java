package dev.javelin.backend.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.HfConfigJson;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.checkpoint.ModelConfigJson;
import dev.javelin.backend.checkpoint.safetensors.StorageType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelConfigTest {
  @TempDir Path tmp;

  @Test
  void readsTransformersConfigs() {
    ModelConfig q = HfFixture.load("qwen2-tiny").config();
    assertEquals(
        new ModelConfig(96, 32, 64, 2, 4, 2, 8, 1e6, 1e-6, true, true, 64, LlamaFamily.QWEN2), q);
    ModelConfig l = HfFixture.load("llama-tiny").config();
    assertEquals(
        new ModelConfig(96, 32, 64, 2, 4, 2, 8, 1e4, 1e-6, false, false, 64, LlamaFamily.LLAMA), l);
  }

  @Test
  void parameterCountMatchesTheCheckpoint() {
    for (String name : new String[] {"qwen2-tiny", "llama-tiny"}) {
      HfFixture fx = HfFixture.load(name);
      long n = fx.checkpoint().weights().values().stream().mapToLong(t -> t.shape().size()).sum();
      assertEquals(n, fx.config().parameterCount(), name);
    }
    assertTrue(Math.abs(ModelConfig.tiny().parameterCount() - 5e6) < 1e6);
    assertTrue(Math.abs(ModelConfig.small().parameterCount() - 50e6) < 5e6);
  }

  @Test
  void readsLegacyRopeThetaAndRefusesScaledRope() throws IOException {
    Path f = tmp.resolve("config.json");
    Files.writeString(
        f,
        "{\"model_type\":\"llama\",\"vocab_size\":10,\"hidden_size\":8,\"intermediate_size\":16,"
            + "\"num_hidden_layers\":1,\"num_attention_heads\":2,\"rope_theta\":500000.0}");
    ModelConfig c = HfConfigJson.read(f);
    assertEquals(500000.0, c.ropeTheta());
    assertEquals(2, c.kvHeads());
    assertEquals(4, c.headDim());
    assertFalse(c.qkvBias());
    Files.writeString(
        f,
        "{\"model_type\":\"llama\",\"vocab_size\":10,\"hidden_size\":8,\"intermediate_size\":16,"
            + "\"num_hidden_layers\":1,\"num_attention_heads\":2,"
            + "\"rope_scaling\":{\"rope_type\":\"llama3\",\"factor\":8.0}}");
    var e = assertThrows(IllegalArgumentException.class, () -> HfConfigJson.read(f));
    assertTrue(e.getMessage().contains("llama3"), e.getMessage());
    Files.writeString(f, "{\"model_type\":\"gpt2\"}");
    assertThrows(IllegalArgumentException.class, () -> HfConfigJson.read(f));
  }

  @Test
  void validatesFieldsByName() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new ModelConfig(
                    10, 8, 16, 1, 3, 2, 4, 1e4, 1e-6, true, false, 8, LlamaFamily.LLAMA));
    assertTrue(e.getMessage().contains("kvHeads"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new ModelConfig(
                    10, 0, 16, 1, 2, 2, 4, 1e4, 1e-6, true, false, 8, LlamaFamily.LLAMA));
    assertTrue(e.getMessage().contains("hidden"), e.getMessage());
  }

  @Test
  void checkpointSavesAndLoadsInHfLayout() {
    ModelCheckpoint ck = HfFixture.load("llama-tiny").checkpoint();
    Path out = tmp.resolve("saved");
    ck.save(out, "llama", StorageType.F32);
    ModelCheckpoint back = ModelCheckpoint.load(out);
    assertEquals(ck.config(), back.config());
    for (var e : ck.weights().entrySet()) {
      assertArrayEquals(e.getValue().data(), back.weights().get(e.getKey()).data(), e.getKey());
    }
    ck.save(out, "llama", StorageType.BF16);
    Tensor.F32 bf = ModelCheckpoint.load(out).weights().get(WeightSpec.EMBED);
    float[] orig = ck.weights().get(WeightSpec.EMBED).data();
    for (int i = 0; i < orig.length; i++) {
      assertEquals(orig[i], bf.data()[i], Math.abs(orig[i]) * 4e-3 + 1e-30);
    }
  }

  @Test
  void biasesFollowAttentionBiasNotTheModelType() {
    ModelConfig llama = ModelConfig.tiny().withQkvBias(false);
    // a bias-free model written under model_type qwen2 keeps no biases (attention_bias=false)
    assertEquals(false, ModelConfigJson.parse(ModelConfigJson.write(llama, "qwen2")).qkvBias());
    assertEquals(
        true,
        ModelConfigJson.parse(ModelConfigJson.write(llama.withQkvBias(true), "llama")).qkvBias());
    // Qwen2 configs that say nothing about attention_bias have biases
    String bare = ModelConfigJson.write(llama, "qwen2").replace("\"attention_bias\":false,", "");
    assertEquals(true, ModelConfigJson.parse(bare).qkvBias());
  }
}
