package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.recipes.driver.LocalSamplerPool;
import dev.javelin.recipes.driver.ModelInit;
import dev.javelin.recipes.driver.RecipeTrainerFactory;
import dev.javelin.sampler.SamplerActor;
import dev.javelin.trainer.Trainer;
import dev.javelin.weightsync.SnapshotCodec;
import dev.javelin.weightsync.SnapshotRejectedException;
import dev.javelin.weightsync.WeightSnapshot;
import dev.javelin.weightsync.WireType;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The driver's weight sync refuses stale versions and corrupted bytes, and keeps the weights. */
class WeightSyncRejectionTest {

  @Test
  void staleAndCorruptSnapshotsAreRejected(@TempDir Path dir) {
    RecipeConfig recipe = Recipes.load("recipes/arith-grpo.yaml", TinyRuns.tiny(dir, 1));
    String configJson = ModelInit.configJson(recipe);
    SamplerActor direct = SamplerActor.awaitingWeights("cpu", configJson, 8);
    try (Trainer trainer = RecipeTrainerFactory.create(recipe);
        LocalSamplerPool pool =
            new LocalSamplerPool(List.of(SamplerActor.awaitingWeights("cpu", configJson, 8)))) {
      pool.loadWeights(trainer.snapshot(3, WireType.F32));
      // A version older than the one held leaves the sampler at v3, which the pool reports.
      IllegalStateException stale =
          assertThrows(
              IllegalStateException.class,
              () -> pool.loadWeights(trainer.snapshot(2, WireType.F32)));
      assertTrue(stale.getMessage().contains("v3"), stale.getMessage());

      WeightSnapshot s = trainer.snapshot(5, WireType.BF16);
      ByteBuffer enc = SnapshotCodec.encode(s);
      byte[] bytes = new byte[enc.remaining()];
      enc.duplicate().get(bytes);
      bytes[bytes.length - 3] ^= 0x5A; // a flipped bit in the last tensor's payload
      SnapshotRejectedException bad =
          assertThrows(SnapshotRejectedException.class, () -> direct.loadWeights(bytes));
      assertEquals(SnapshotRejectedException.Reason.CHECKSUM, bad.reason());
      assertEquals(-1, direct.version(), "a rejected snapshot changes nothing");
    } finally {
      direct.shutdown();
    }
  }
}
