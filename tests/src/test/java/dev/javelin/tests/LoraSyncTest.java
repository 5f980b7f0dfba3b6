package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.cli.Commands;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.recipes.driver.ModelInit;
import dev.javelin.recipes.driver.RecipeTrainerFactory;
import dev.javelin.sampler.SamplerActor;
import dev.javelin.trainer.Trainer;
import dev.javelin.weightsync.SnapshotCodec;
import dev.javelin.weightsync.SnapshotContent;
import dev.javelin.weightsync.SnapshotRejectedException;
import dev.javelin.weightsync.WeightSnapshot;
import dev.javelin.weightsync.WireType;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code actor_rollout_ref.rollout.lora_sync=adapters}: the samplers merge adapters into the base
 * they hold and end up with exactly the weights a merged sync sends, so a run is the same run
 * either way; a sampler without the base refuses adapters alone; resume stays exact, with LoRA
 * dropout too.
 */
class LoraSyncTest {
  private static final Commands QUIET =
      new Commands(new PrintStream(OutputStream.nullOutputStream()));
  private static final String RANK = "actor_rollout_ref.model.lora_rank=4";
  private static final String ALPHA = "actor_rollout_ref.model.lora_alpha=12";
  private static final List<String> SAME =
      List.of(
          "critic/score/mean",
          "response_length/mean",
          "actor/pg_loss",
          "actor/entropy",
          "actor/ppo_kl",
          "actor/grad_norm");

  @Test
  void adapterSyncRunsExactlyTheMergedRunWithFewerBytes(@TempDir Path tmp) throws Exception {
    Path merged = tmp.resolve("merged");
    Path adapters = tmp.resolve("adapters");
    QUIET.run("recipes/arith-grpo.yaml", run(merged, 4, "merged", "trainer.save_freq=4"));
    QUIET.run("recipes/arith-grpo.yaml", run(adapters, 4, "adapters", "trainer.save_freq=4"));
    // Through Ray's object store and its sampler pool, which keeps the snapshot with the base.
    Path ray = tmp.resolve("ray");
    QUIET.run(
        "recipes/arith-grpo.yaml",
        run(ray, 4, "adapters", "trainer.ray=local", "trainer.samplers=2"));

    for (String key : SAME) {
      Map<Integer, Double> a = TinyRuns.series(merged, key);
      assertEquals(4, a.size(), key);
      assertEquals(a, TinyRuns.series(adapters, key), key);
      assertEquals(a, TinyRuns.series(ray, key), "ray: " + key);
    }
    assertArrayEquals(
        Files.readAllBytes(merged.resolve("global_step_4/model.safetensors")),
        Files.readAllBytes(adapters.resolve("global_step_4/model.safetensors")));
    Map<Integer, Double> full = TinyRuns.series(merged, "perf/weight_sync_bytes");
    Map<Integer, Double> small = TinyRuns.series(adapters, "perf/weight_sync_bytes");
    for (int step = 1; step <= 4; step++) {
      assertTrue(small.get(step) * 5 < full.get(step), step + ": " + small + " vs " + full);
    }
  }

  @Test
  void aSamplerWithoutTheBaseRefusesAdaptersAlone(@TempDir Path dir) {
    RecipeConfig recipe = Recipes.load("recipes/arith-grpo.yaml", run(dir, 1, "adapters"));
    SamplerActor sampler = SamplerActor.awaitingWeights("cpu", ModelInit.configJson(recipe), 8);
    try (Trainer trainer = RecipeTrainerFactory.create(recipe)) {
      SnapshotRejectedException noBase =
          assertThrows(
              SnapshotRejectedException.class,
              () ->
                  sampler.loadWeights(
                      bytes(trainer.snapshot(1, WireType.F32, SnapshotContent.ADAPTERS))));
      assertEquals(SnapshotRejectedException.Reason.NO_BASE, noBase.reason());
      assertTrue(noBase.getMessage().contains("no base weights"), noBase.getMessage());
      assertEquals(-1, sampler.version(), "a refused snapshot changes nothing");

      WeightSnapshot first = trainer.snapshot(2, WireType.F32, SnapshotContent.BASE_AND_ADAPTERS);
      assertEquals(2, sampler.loadWeights(bytes(first)));
      WeightSnapshot next = trainer.snapshot(3, WireType.F32, SnapshotContent.ADAPTERS);
      assertTrue(next.byteSize() * 5 < first.byteSize(), next + " vs " + first);
      assertEquals(3, sampler.loadWeights(bytes(next)));
      // Whole weights replace the base: adapters alone are refused again after them.
      assertEquals(4, sampler.loadWeights(bytes(trainer.snapshot(4, WireType.F32))));
      SnapshotRejectedException again =
          assertThrows(
              SnapshotRejectedException.class,
              () ->
                  sampler.loadWeights(
                      bytes(trainer.snapshot(5, WireType.F32, SnapshotContent.ADAPTERS))));
      assertEquals(SnapshotRejectedException.Reason.NO_BASE, again.reason());
      assertEquals(4, sampler.version());
    } finally {
      sampler.shutdown();
    }
  }

  /** With adapter sync and dropout: the masks are drawn per step, so a resume redraws them. */
  @Test
  void resumeWithAdapterSyncAndDropoutIsExact(@TempDir Path tmp) throws Exception {
    Path straight = tmp.resolve("straight");
    Path resumed = tmp.resolve("resumed");
    Path undropped = tmp.resolve("undropped");
    String drop = "actor_rollout_ref.model.lora_dropout=0.1";
    QUIET.run("recipes/arith-grpo.yaml", run(straight, 4, "adapters", "trainer.save_freq=2", drop));
    QUIET.run("recipes/arith-grpo.yaml", run(resumed, 2, "adapters", "trainer.save_freq=2", drop));
    QUIET.run(
        "recipes/arith-grpo.yaml", run(resumed, 4, "adapters", "trainer.resume_mode=auto", drop));
    QUIET.run("recipes/arith-grpo.yaml", run(undropped, 4, "adapters"));

    assertArrayEquals(
        Files.readAllBytes(straight.resolve("global_step_4/model.safetensors")),
        Files.readAllBytes(resumed.resolve("global_step_4/model.safetensors")),
        "weights after step 4");
    for (String key : SAME) {
      assertEquals(TinyRuns.series(straight, key), TinyRuns.series(resumed, key), key);
    }
    assertNotEquals(
        TinyRuns.series(undropped, "actor/grad_norm"),
        TinyRuns.series(straight, "actor/grad_norm"),
        "dropout changes the steps");
    String config =
        Files.readString(straight.resolve("global_step_4/lora_adapter/adapter_config.json"));
    assertTrue(config.matches("(?s).*\"lora_dropout\"\\s*:\\s*0\\.1\\b.*"), config);
  }

  private static List<String> run(Path dir, int steps, String sync, String... extra) {
    List<String> o =
        new ArrayList<>(
            TinyRuns.tiny(
                dir,
                steps,
                "trainer.ray=off",
                RANK,
                ALPHA,
                "actor_rollout_ref.rollout.lora_sync=" + sync));
    o.addAll(List.of(extra));
    return o;
  }

  private static byte[] bytes(WeightSnapshot s) {
    return SnapshotCodec.toArray(s);
  }
}
