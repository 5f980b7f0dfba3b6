package dev.javelin.recipes.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.checkpoint.ModelConfigJson;
import dev.javelin.backend.checkpoint.safetensors.StorageType;
import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.trainer.Trainer;
import dev.javelin.weightsync.SnapshotCodec;
import dev.javelin.weightsync.WeightSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The model's architecture comes from the checkpoint, never from the recipe's default. */
class ModelInitTest {
  @TempDir Path tmp;

  private Path llamaCheckpoint() {
    ModelConfig c =
        new ModelConfig(64, 32, 64, 2, 4, 2, 8, 10_000, 1e-6, true, false, 64, LlamaFamily.LLAMA);
    Path dir = tmp.resolve("llama");
    ModelCheckpoint.random(c, 1, 0.02).save(dir, "llama", StorageType.F32);
    return dir;
  }

  private static RecipeConfig recipe(Path model, String... more) {
    List<String> o =
        new ArrayList<>(
            List.of(
                "actor_rollout_ref.model.path=" + model, "actor_rollout_ref.model.warmup_recipe="));
    o.addAll(List.of(more));
    return Recipes.load("recipes/arith-grpo.yaml", o);
  }

  @Test
  void samplersGetTheCheckpointsOwnArchitecture() {
    RecipeConfig r = recipe(llamaCheckpoint());
    assertEquals("llama", ModelInit.modelType(r));
    ModelConfig sent = ModelConfigJson.parse(ModelInit.configJson(r));
    assertFalse(sent.qkvBias(), "a Llama checkpoint has no q/k/v biases");
    assertEquals(ModelInit.initial(r).config(), sent);
  }

  /** An eval in this JVM publishes the weights without a trainer: the same bytes one would. */
  @Test
  void theInitialSnapshotIsTheTrainersVersionZero() throws Exception {
    for (RecipeConfig r :
        List.of(
            recipe(llamaCheckpoint()),
            recipe(tmp.resolve("none"), "actor_rollout_ref.model.path="))) {
      WeightSnapshot mine = ModelInit.initialSnapshot(r);
      try (Trainer trainer = RecipeTrainerFactory.create(r)) {
        WeightSnapshot theirs = trainer.snapshot(0, r.rollout().weightDtype());
        assertEquals(theirs.entries(), mine.entries());
        assertEquals(theirs.checksum(), mine.checksum());
        assertEquals(SnapshotCodec.encode(theirs), SnapshotCodec.encode(mine));
      }
    }
  }

  /** A recipe that leaves model_type at its default takes a Qwen2 checkpoint as Qwen2. */
  @Test
  void theDefaultModelTypeDoesNotContradictTheCheckpoint() {
    ModelConfig c =
        new ModelConfig(64, 32, 64, 2, 4, 2, 8, 10_000, 1e-6, true, true, 64, LlamaFamily.QWEN2);
    Path dir = tmp.resolve("qwen2");
    ModelCheckpoint.random(c, 1, 0.02).save(dir, "qwen2", StorageType.F32);
    RecipeConfig r = recipe(dir);
    assertFalse(r.model().modelTypeStated(), "model_type was left at its default");
    assertEquals("qwen2", ModelInit.modelType(r));
    assertTrue(ModelConfigJson.parse(ModelInit.configJson(r)).qkvBias());
  }

  @Test
  void aContradictingRecipeModelTypeStops() {
    RecipeConfig r = recipe(llamaCheckpoint(), "actor_rollout_ref.model.model_type=qwen2");
    ConfigException e = assertThrows(ConfigException.class, () -> ModelInit.configJson(r));
    assertTrue(
        e.getMessage().contains("'qwen2'") && e.getMessage().contains("'llama'"), e.getMessage());
  }

  @Test
  void aMalformedGgufIsOneConfigError() throws Exception {
    Path bad = tmp.resolve("bad.gguf");
    Files.write(bad, new byte[] {'G', 'G', 'U', 'F', 3, 0, 0, 0});
    ConfigException e = assertThrows(ConfigException.class, () -> ModelInit.initial(recipe(bad)));
    assertTrue(
        e.getMessage().contains("actor_rollout_ref.model.path")
            && e.getMessage().contains(bad.toString()),
        e.getMessage());
  }

  @Test
  void nonFiniteWeightsAreOneLineAtLoad() {
    ModelConfig c =
        new ModelConfig(64, 32, 64, 2, 4, 2, 8, 10_000, 1e-6, true, false, 64, LlamaFamily.LLAMA);
    ModelCheckpoint w = ModelCheckpoint.random(c, 1, 0.02);
    var first = w.ordered().entrySet().iterator().next();
    first.getValue().data()[3] = Float.NaN;
    ConfigException e =
        assertThrows(ConfigException.class, () -> ModelInit.requireFinite(Path.of("ckpt"), w));
    assertTrue(e.getMessage().contains("ckpt has non-finite weights (1 NaN"), e.getMessage());
    assertTrue(e.getMessage().contains(first.getKey()), e.getMessage());
    assertEquals(1, e.getMessage().lines().count());
  }

  /** override_config changes the fields it names and nothing else: the family stays the model's. */
  @Test
  void overridesKeepTheModelsFamily() {
    for (String type : List.of("qwen3", "gemma3_text", "qwen3_moe")) {
      RecipeConfig r =
          recipe(
              tmp.resolve("none"),
              "actor_rollout_ref.model.path=",
              "actor_rollout_ref.model.model_type=" + type,
              "actor_rollout_ref.model.override_config.rope_theta=5000.0");
      ModelConfig c = ModelInit.config(r);
      assertEquals(type, c.architecture().modelType());
      assertEquals(5000.0, c.ropeTheta());
    }
  }
}
