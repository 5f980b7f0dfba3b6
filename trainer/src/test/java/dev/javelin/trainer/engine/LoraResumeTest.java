package dev.javelin.trainer.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.checkpoint.PeftAdapter;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.model.LoraAdapters;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.optim.LrSchedule;
import dev.javelin.trainer.Checkpointer;
import dev.javelin.trainer.Fixtures;
import dev.javelin.trainer.PolicyRole;
import dev.javelin.trainer.ResumeMode;
import dev.javelin.trainer.TrainSample;
import dev.javelin.trainer.TrainerConfig;
import dev.javelin.trainer.TrainerState;
import dev.javelin.weightsync.WeightSnapshot;
import dev.javelin.weightsync.WireType;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A LoRA run: only adapters train and hold optimizer state, the KL reference is the untouched base,
 * checkpoints hold the merged model plus a PEFT adapter, and a resumed run matches the
 * uninterrupted one bit for bit.
 */
class LoraResumeTest {
  private static final ModelCheckpoint INITIAL = Fixtures.microCheckpoint(99);
  private static final LoraConfig LORA =
      new LoraConfig(4, 16, Set.of("q_proj", "v_proj", "down_proj"));
  @TempDir Path root;

  private static TrainerConfig config() {
    return Fixtures.resumeConfig(new LrSchedule.Constant(2e-2), 7L);
  }

  private static PpoUpdater lora(Device d) {
    return new PpoUpdater(
        d, INITIAL, config(), new UpdaterOptions(Remat.ELEMENTWISE, LORA, 5, DType.F32));
  }

  private static List<TrainSample> batchFor(int step) {
    return Fixtures.batch(2000 + step, 4, 4);
  }

  @Test
  void aResumedLoraRunMatchesAnUninterruptedOneAndTheBaseStaysTheReference() throws Exception {
    Checkpointer ckpt = new Checkpointer(root, 1);
    Map<String, Double> lastA;
    Map<String, Tensor.F32> adaptersA;
    Map<String, Tensor> momentsA;
    ModelCheckpoint mergedA;
    try (Device device = Devices.open("cpu");
        PpoUpdater a = lora(device);
        PpoUpdater plain = new PpoUpdater(device, INITIAL, config())) {
      Map<String, Double> m = null;
      for (int step = 1; step <= 4; step++) {
        m = PpoUpdaterTest.grpoStep(a, batchFor(step));
        if (step == 2) {
          ckpt.save(step, dir -> a.saveCheckpoint(dir, Map.of("global_step", "2")));
        }
      }
      lastA = m;
      adaptersA = a.adapterTensors();
      momentsA = a.optimizerState();
      mergedA = a.policyCheckpoint();
      // Moments exist for A and B only.
      assertEquals(2 * adaptersA.size(), momentsA.size());
      momentsA.keySet().forEach(k -> assertTrue(k.contains(".lora_"), k));
      // The reference is the frozen base: the same log-probs as an untrained full model.
      List<TrainSample> probe = batchFor(9);
      float[][] ref = a.logProbs(probe, PolicyRole.REFERENCE);
      float[][] base = plain.logProbs(probe, PolicyRole.ACTOR);
      for (int i = 0; i < ref.length; i++) {
        assertArrayEquals(base[i], ref[i], 0f);
      }
      assertFalse(Arrays.equals(base[0], a.logProbs(probe, PolicyRole.ACTOR)[0]));
      // Samplers get W + s·BA.
      Map<String, Tensor.F32> expect =
          LoraAdapters.merge(LORA, INITIAL.config(), INITIAL.weights(), adaptersA);
      WeightSnapshot snap = a.snapshot(1, WireType.F32);
      expect.forEach((k, v) -> assertArrayEquals(v.data(), snap.floats(k), 0f, k));
    }

    Path saved = ckpt.resolve(new ResumeMode.Auto()).orElseThrow();
    PeftAdapter onDisk =
        PeftAdapter.load(saved.resolve(CheckpointFiles.LORA_ADAPTER), INITIAL.config());
    assertEquals(LORA, onDisk.lora());

    try (Device device = Devices.open("cpu");
        PpoUpdater b = lora(device)) {
      TrainerState state = b.loadCheckpoint(saved);
      assertEquals(8, state.optimizerSteps()); // 2 steps × 2 epochs × 2 mini-batches
      Map<String, Double> m = null;
      for (int step = 3; step <= 4; step++) {
        m = PpoUpdaterTest.grpoStep(b, batchFor(step));
      }
      assertEquals(lastA, m);
      Map<String, Tensor.F32> adaptersB = b.adapterTensors();
      adaptersA.forEach((k, v) -> assertArrayEquals(v.data(), adaptersB.get(k).data(), 0f, k));
      Map<String, Tensor> momentsB = b.optimizerState();
      momentsA.forEach(
          (k, v) ->
              assertArrayEquals(((Tensor.F32) v).data(), ((Tensor.F32) momentsB.get(k)).data(), k));
      mergedA
          .weights()
          .forEach(
              (k, v) ->
                  assertArrayEquals(v.data(), b.policyCheckpoint().weights().get(k).data(), k));
    }
  }
}
