package dev.javelin.trainer.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.Devices;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.checkpoint.safetensors.CheckpointShard;
import dev.javelin.backend.distributed.Gang;
import dev.javelin.trainer.Fixtures;
import dev.javelin.trainer.TrainSample;
import dev.javelin.trainer.Trainer;
import dev.javelin.trainer.TrainerConfig;
import dev.javelin.trainer.TrainerState;
import dev.javelin.weightsync.SnapshotCodec;
import dev.javelin.weightsync.SnapshotContent;
import dev.javelin.weightsync.WeightSnapshot;
import dev.javelin.weightsync.WireType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gang's checkpoint is written in parts, each rank its own, and loads in one process (and a
 * single process's in a gang) with every weight and AdamW moment bit for bit; each rank sends its
 * part of a weight-sync snapshot, and the parts put together are the one process's snapshot.
 */
class GangPartsTest {
  private static final ModelCheckpoint INITIAL = Fixtures.microCheckpoint(11);
  private static final TrainerConfig CONFIG = Fixtures.klConfig(8, 2);
  @TempDir Path root;

  @Test
  void everyRankWritesItsPartAndOneProcessResumesFromThem() throws Exception {
    Path parts = root.resolve("gang");
    Files.createDirectories(parts);
    try (ThreadGangTrainer gang = gang(3)) {
      for (int step = 0; step < 2; step++) {
        grpoStep(gang, Fixtures.batch(700 + step, 4, 2));
      }
      gang.saveCheckpoint(parts, Map.of("global_step", "2"));
      for (int r = 1; r <= 3; r++) {
        assertTrue(Files.size(parts.resolve(part("model", r, 3))) > 100, part("model", r, 3));
        assertTrue(
            Files.isRegularFile(parts.resolve(part("optimizer", r, 3))), part("optimizer", r, 3));
      }
      assertTrue(Files.isRegularFile(parts.resolve("model.safetensors.index.json")));
      assertFalse(Files.exists(parts.resolve("model.safetensors")), "no rank writes it all");
      assertFalse(Files.exists(parts.resolve(CheckpointFiles.OPTIMIZER)));
      keepForTransformers(parts);

      Path whole = root.resolve("one");
      Files.createDirectories(whole);
      try (PpoUpdater one = updater(null)) {
        TrainerState state = one.loadCheckpoint(parts);
        assertEquals(gang.optimizerSteps(), state.optimizerSteps());
        assertEquals("2", state.extra().get("global_step"));
        assertSame(gang.rank(0), one);
        one.saveCheckpoint(whole, Map.of("global_step", "2"));
      }
      // The whole form, loaded into a fresh gang of two, holds the same state on every rank.
      try (ThreadGangTrainer two = gang(2)) {
        two.loadCheckpoint(whole);
        for (int r = 0; r < 2; r++) {
          assertSame(gang.rank(0), two.rank(r));
        }
        List<TrainSample> next = Fixtures.batch(710, 4, 2);
        Map<String, Double> want = grpoStep(gang, next);
        Map<String, Double> got = grpoStep(two, next); // the same step, summed in another order
        assertEquals(want.keySet(), got.keySet());
        want.forEach((k, v) -> assertEquals(v, got.get(k), 1e-5 * Math.abs(v) + 1e-7, k));
      }
    }
  }

  @Test
  void theRanksSnapshotPartsMakeTheOneProcessSnapshot() {
    try (PpoUpdater one = updater(null);
        ThreadGangTrainer gang = gang(3)) {
      for (WireType type : WireType.values()) {
        WeightSnapshot whole = one.snapshot(4, type, SnapshotContent.WEIGHTS);
        long biggest = 0;
        for (int r = 0; r < 3; r++) {
          WeightSnapshot part =
              gang.rank(r).snapshot(4, type, SnapshotContent.WEIGHTS, new CheckpointShard(r, 3));
          biggest = Math.max(biggest, part.byteSize());
        }
        assertTrue(biggest < whole.byteSize() * 2 / 3, "a rank sends " + biggest + " B");
        assertArrayEquals(
            SnapshotCodec.toArray(whole),
            SnapshotCodec.toArray(gang.snapshot(4, type, SnapshotContent.WEIGHTS)),
            type + ": the parts put together");
      }
    }
  }

  @Test
  void aMissingOptimizerPartIsNamed() throws Exception {
    try (ThreadGangTrainer gang = gang(2)) {
      gang.saveCheckpoint(root, Map.of());
    }
    Files.delete(root.resolve(part("optimizer", 2, 2)));
    try (PpoUpdater one = updater(null)) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> one.loadCheckpoint(root));
      assertTrue(e.getMessage().contains(part("optimizer", 2, 2)), e.getMessage());
    }
  }

  /** A copy for {@code tools/hf_load_check.py trainer/target/hf-writeback/gang-3-ranks}. */
  private static void keepForTransformers(Path parts) throws IOException {
    Path keep =
        Path.of(System.getProperty("javelin.root"), "trainer/target/hf-writeback/gang-3-ranks");
    Files.createDirectories(keep);
    try (var files = Files.list(parts)) {
      for (Path p : files.toList()) {
        Files.copy(p, keep.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  private static String part(String stem, int oneBased, int ranks) {
    return String.format("%s-%05d-of-%05d.safetensors", stem, oneBased, ranks);
  }

  /** Same weights and AdamW moments to the bit. */
  private static void assertSame(PpoUpdater want, PpoUpdater got) {
    ModelCheckpoint a = want.policyCheckpoint();
    ModelCheckpoint b = got.policyCheckpoint();
    a.weights().forEach((k, w) -> assertArrayEquals(w.data(), b.weights().get(k).data(), k));
    Map<String, Tensor> ma = want.optimizerState();
    Map<String, Tensor> mb = got.optimizerState();
    assertEquals(ma.keySet(), mb.keySet());
    ma.forEach(
        (k, m) -> assertArrayEquals(((Tensor.F32) m).data(), ((Tensor.F32) mb.get(k)).data(), k));
  }

  private static PpoUpdater updater(Gang g) {
    return PpoUpdater.owning(
        Devices.open("cpu"), INITIAL, CONFIG, UpdaterOptions.defaults().withGang(g));
  }

  private static ThreadGangTrainer gang(int size) {
    return ThreadGangTrainer.start(size, Duration.ofSeconds(60), GangPartsTest::updater);
  }

  private static Map<String, Double> grpoStep(Trainer t, List<TrainSample> batch) {
    Map<String, Double> m = new TreeMap<>(Fixtures.grpoStep(t, batch));
    m.keySet().removeIf(k -> k.startsWith("timing_s/"));
    return m;
  }
}
