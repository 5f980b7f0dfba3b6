package dev.javelin.backend.xla;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.Device;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.TokenBatch;
import dev.javelin.backend.batch.TokenLogProbs;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.LrSchedule;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.backend.runtime.PolicyOptimizer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link PolicyOptimizer} on {@code xla:cpu} keeps the weights and AdamW moments on the device and
 * updates them in place: 20 host-loss steps over two micro-batches follow the {@code cpu} engine's
 * loss curve, every weight and moment keeps its device address from step to step (the update
 * program's outputs alias its donated inputs), and a step moves only its batch across the host
 * boundary.
 */
class XlaInPlaceTrainTest {
  private static final double TOL = 1e-4;
  private static final int STEPS = 20;
  private static final int ROWS = 2;
  private static final int BUCKET = 16; // PolicyModel's length bucket for these <= 16 token rows
  private static Path checkpoint;

  /** Token-mean NLL without an entropy term, so the backward takes only ∂L/∂logp. */
  private static final PolicyOptimizer.HostLoss NLL =
      new PolicyOptimizer.HostLoss() {
        @Override
        public PolicyOptimizer.Cotangents apply(int microBatch, TokenLogProbs stats) {
          return nll(microBatch, stats);
        }

        @Override
        public boolean usesEntropy() {
          return false;
        }
      };

  @BeforeAll
  static void locate() {
    checkpoint = XlaTestFixtures.qwen2Tiny();
  }

  private static List<TokenBatch> microBatches() {
    return List.of(
        TokenBatch.rightPadded(
            List.of(new int[] {3, 17, 42, 5, 9, 11, 2}, new int[] {8, 1, 30, 4}), 7),
        TokenBatch.rightPadded(
            List.of(new int[] {12, 7, 7, 60, 2}, new int[] {50, 51, 52, 53, 54, 55, 56, 57}), 8));
  }

  @Test
  void twentyStepsFollowCpuAndUpdateTheModelInPlace() {
    double[] onCpu = new double[STEPS];
    try (Device d = Devices.open("cpu");
        PolicyModel model = PolicyModel.load(d, checkpoint);
        PolicyOptimizer trainer = trainer(model)) {
      for (int s = 0; s < STEPS; s++) {
        onCpu[s] = trainer.step(microBatches(), 1f, NLL).loss();
      }
    }
    try (XlaDevice d = (XlaDevice) Devices.open("xla:cpu");
        PolicyModel model = PolicyModel.load(d, checkpoint);
        PolicyOptimizer trainer = trainer(model)) {
      Map<String, Long> where = addresses(model, trainer);
      long modelBytes = bytes(model.weightsOnDevice());
      for (int s = 0; s < STEPS; s++) {
        Transfers before = d.transfers();
        double loss = trainer.step(microBatches(), 1f, NLL).loss();
        Transfers moved = d.transfers().since(before);
        double rel = Math.abs(loss - onCpu[s]) / Math.max(Math.abs(onCpu[s]), 1e-6);
        assertTrue(rel <= TOL, "step " + s + ": xla " + loss + " vs cpu " + onCpu[s]);
        assertStayed(where, addresses(model, trainer), "step " + s);
        assertEquals(expectedPerStep(), moved, "step " + s + " traffic");
        assertTrue(moved.uploadedBytes() * 20 < modelBytes, moved + " vs model " + modelBytes);
      }
      assertEquals(STEPS, trainer.stepCount());
    }
    assertTrue(onCpu[STEPS - 1] < onCpu[0], "loss should fall: " + onCpu[0] + " -> " + onCpu[19]);
  }

  /**
   * Per micro-batch: ids, positions, mask (B, T) and the temperature up, ∂L/∂logp (B, T-1) up, logp
   * and entropy (B, T-1) down; per step: lr and step up, grad norm and applied down.
   */
  private static Transfers expectedPerStep() {
    int micro = microBatches().size();
    long tokens = (long) ROWS * BUCKET * 4;
    long cols = (long) ROWS * (BUCKET - 1) * 4;
    return new Transfers(
        micro * 5L + 2, micro * (3 * tokens + 4 + cols) + 8, micro * 2L + 2, micro * 2L * cols + 8);
  }

  private static PolicyOptimizer trainer(PolicyModel model) {
    return new PolicyOptimizer(model, AdamWConfig.defaults(), new LrSchedule.Constant(3e-3));
  }

  private static Map<String, Long> addresses(PolicyModel model, PolicyOptimizer trainer) {
    Map<String, Long> out = new LinkedHashMap<>();
    model.weightsOnDevice().forEach((k, b) -> out.put(k, ((XlaBuffer) b).deviceAddress()));
    trainer.momentsOnDevice().forEach((k, b) -> out.put(k, ((XlaBuffer) b).deviceAddress()));
    return out;
  }

  /** Every buffer at the same device address: the update wrote into its donated input. */
  private static void assertStayed(Map<String, Long> before, Map<String, Long> after, String when) {
    List<String> moved =
        before.keySet().stream().filter(k -> !before.get(k).equals(after.get(k))).toList();
    assertTrue(
        moved.isEmpty(),
        when
            + " reallocated "
            + moved.size()
            + " of "
            + before.size()
            + " buffers, e.g. "
            + moved.subList(0, Math.min(3, moved.size())));
  }

  private static long bytes(Map<String, DeviceBuffer> buffers) {
    return buffers.values().stream().mapToLong(b -> b.shape().size() * b.dtype().byteSize()).sum();
  }

  /** Mean negative log-likelihood of each micro-batch's real tokens, summed over micro-batches. */
  private static PolicyOptimizer.Cotangents nll(int microBatch, TokenLogProbs stats) {
    TokenBatch batch = microBatches().get(microBatch);
    Shape s = stats.logp().shape(); // (B, T-1)
    float[] mask = batch.mask().data(); // (B, T): targets are columns 1..T-1
    int t = batch.length();
    float[] d = new float[s.intSize()];
    int n = 0;
    for (int r = 0; r < s.dim(0); r++) {
      for (int j = 1; j < t; j++) {
        n += mask[r * t + j] > 0 ? 1 : 0;
      }
    }
    double loss = 0;
    for (int r = 0; r < s.dim(0); r++) {
      for (int j = 1; j < t; j++) {
        if (mask[r * t + j] > 0) {
          int at = r * (t - 1) + j - 1;
          d[at] = -1f / n;
          loss -= stats.logp().data()[at] / n;
        }
      }
    }
    return new PolicyOptimizer.Cotangents(loss, new Tensor.F32(s, d), null);
  }
}
