package dev.javelin.trainer.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.optim.LrSchedule;
import dev.javelin.trainer.Checkpointer;
import dev.javelin.trainer.Fixtures;
import dev.javelin.trainer.ResumeMode;
import dev.javelin.trainer.TrainSample;
import dev.javelin.trainer.TrainerConfig;
import dev.javelin.trainer.TrainerState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run checkpointed at step 2 and resumed in a fresh trainer reaches bit-identical weights,
 * optimizer moments and metrics at step 4 as the uninterrupted run: shuffled PPO epochs, several
 * mini-batches, a KL loss and a warmup schedule, so every piece of state has to come back.
 */
class ExactResumeTest {
  private static final ModelCheckpoint INITIAL = Fixtures.microCheckpoint(99);
  @TempDir Path root;

  private static TrainerConfig config() {
    return Fixtures.resumeConfig(new LrSchedule.Cosine(2e-3, 3, 20, 0.1), 1234L);
  }

  /** The driver's batch for step {@code step}: a pure function of the seed and the step. */
  private static List<TrainSample> batchFor(int step) {
    return Fixtures.batch(1000 + step, 4, 4); // 16 samples, 2 mini-batches
  }

  @Test
  void aResumedRunMatchesAnUninterruptedOneBitForBit() throws Exception {
    Checkpointer ckpt = new Checkpointer(root, 1);
    Map<String, Double> lastA;
    ModelCheckpoint weightsA;
    Map<String, Tensor> momentsA;
    try (Device device = Devices.open("cpu");
        PpoUpdater a = new PpoUpdater(device, INITIAL, config())) {
      Map<String, Double> m = null;
      for (int step = 1; step <= 4; step++) {
        m = PpoUpdaterTest.grpoStep(a, batchFor(step));
        if (step == 2) {
          int s = step;
          ckpt.save(step, dir -> a.saveCheckpoint(dir, Map.of("global_step", Integer.toString(s))));
        }
      }
      lastA = m;
      weightsA = a.policyCheckpoint();
      momentsA = optimizerState(a);
      assertEquals(16, a.optimizerSteps()); // 4 steps × 2 epochs × 2 mini-batches
    }

    Path saved = ckpt.resolve(new ResumeMode.Auto()).orElseThrow();
    for (String f :
        List.of(
            "config.json", "model.safetensors", "optimizer.safetensors", "trainer_state.json")) {
      assertTrue(Files.isRegularFile(saved.resolve(f)), f + " missing in " + saved);
    }
    // The model part is a plain HF checkpoint.
    assertEquals(INITIAL.config(), ModelCheckpoint.load(saved).config());

    try (Device device = Devices.open("cpu");
        PpoUpdater b = new PpoUpdater(device, INITIAL, config())) {
      TrainerState state = b.loadCheckpoint(saved);
      assertEquals(8, state.optimizerSteps());
      int resumeAt = Integer.parseInt(state.extra().get("global_step")) + 1;
      Map<String, Double> m = null;
      for (int step = resumeAt; step <= 4; step++) {
        m = PpoUpdaterTest.grpoStep(b, batchFor(step));
      }
      assertEquals(lastA, m);
      ModelCheckpoint weightsB = b.policyCheckpoint();
      weightsA
          .weights()
          .forEach((k, v) -> assertArrayEquals(v.data(), weightsB.weights().get(k).data(), k));
      Map<String, Tensor> momentsB = optimizerState(b);
      momentsA.forEach(
          (k, v) ->
              assertArrayEquals(((Tensor.F32) v).data(), ((Tensor.F32) momentsB.get(k)).data(), k));
    }
  }

  /** The driver's state may arrive in any map order (after a resume, off the wire): same bytes. */
  @Test
  void theSameStateIsWrittenAsTheSameBytes() throws Exception {
    Map<String, String> ab = new LinkedHashMap<>();
    ab.put("global_step", "3");
    ab.put("data.position", "8");
    Map<String, String> ba = new LinkedHashMap<>();
    ba.put("data.position", "8");
    ba.put("global_step", "3");
    try (Device device = Devices.open("cpu");
        PpoUpdater a = new PpoUpdater(device, INITIAL, config())) {
      a.saveCheckpoint(root.resolve("one"), ab);
      a.saveCheckpoint(root.resolve("two"), ba);
    }
    for (String f : List.of(CheckpointFiles.STATE, "model.safetensors", "optimizer.safetensors")) {
      assertArrayEquals(
          Files.readAllBytes(root.resolve("one").resolve(f)),
          Files.readAllBytes(root.resolve("two").resolve(f)),
          f);
    }
  }

  @Test
  void aCheckpointOfAnotherModelIsRefused() throws Exception {
    try (Device device = Devices.open("cpu");
        PpoUpdater a = new PpoUpdater(device, INITIAL, config())) {
      Path dir = root.resolve("global_step_1");
      Files.createDirectories(dir);
      a.saveCheckpoint(dir, Map.of());
      Files.delete(dir.resolve(CheckpointFiles.OPTIMIZER));
      assertThrows(RuntimeException.class, () -> a.loadCheckpoint(dir));
      Files.writeString(dir.resolve(CheckpointFiles.STATE), "{\"format\":\"other\"}");
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> a.loadCheckpoint(dir));
      assertTrue(e.getMessage().contains("trainer_state.json"), e.getMessage());
    }
  }

  private static Map<String, Tensor> optimizerState(PpoUpdater t) {
    return t.optimizerState();
  }
}
