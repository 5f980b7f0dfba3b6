package dev.javelin.backend.xla;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.Device;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.backend.runtime.SlotDecoder;
import dev.javelin.backend.testing.RelError;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Continuous-batching decode ({@link SlotDecoder}) on {@code xla:cpu}: the KV cache stays on the
 * device and each step writes into it in place (every cache buffer keeps its device address), only
 * tokens, positions and the active mask go up and the logits come down, and the logits match the
 * {@code cpu} engine's.
 */
class XlaInPlaceDecodeTest {
  private static final double TOL = 1e-4;
  private static final int ROWS = 2;
  private static final int STEPS = 8;
  private static Path checkpoint;

  @BeforeAll
  static void locate() {
    checkpoint = XlaTestFixtures.qwen2Tiny();
  }

  @Test
  void slotDecodeWritesTheCacheInPlaceAndMatchesCpu() {
    List<int[]> prompts = List.of(new int[] {3, 17, 42}, new int[] {8, 1, 30, 4, 5});
    try (Device cpu = Devices.open("cpu");
        XlaDevice xla = (XlaDevice) Devices.open("xla:cpu");
        PolicyModel onCpu = PolicyModel.load(cpu, checkpoint);
        PolicyModel onXla = PolicyModel.load(xla, checkpoint);
        SlotDecoder a = SlotDecoder.open(onCpu, ROWS, 24);
        SlotDecoder b = SlotDecoder.open(onXla, ROWS, 24)) {
      Tensor.F32 la = a.prefill(prompts);
      RelError.assertClose("prefill logits", la, b.prefill(prompts), TOL);
      List<Long> where = addresses(b.cacheOnDevice());
      int v = onCpu.config().vocabSize();
      int[] pos = {prompts.get(0).length, prompts.get(1).length};
      boolean[] active = {true, true};
      for (int s = 0; s < STEPS; s++) {
        int[] next = {argmax(la.data(), 0, v), argmax(la.data(), v, v)};
        active[1] = s % 3 != 2; // an idle row now and then keeps its cache
        Transfers before = xla.transfers();
        Tensor.F32 lb = b.step(next, pos, active);
        Transfers moved = xla.transfers().since(before);
        la = a.step(next, pos, active);
        for (int r = 0; r < ROWS; r++) {
          if (active[r]) {
            RelError.assertClose("step " + s + " row " + r, row(la, r, v), row(lb, r, v), TOL);
          }
          pos[r] += active[r] ? 1 : 0;
        }
        assertEquals(where, addresses(b.cacheOnDevice()), "step " + s + " moved the cache");
        assertEquals(
            new Transfers(3, 3L * ROWS * 4, 1, (long) ROWS * v * 4),
            moved,
            "step " + s + " traffic: tokens, positions, mask up; logits down");
      }
    }
  }

  private static List<Long> addresses(List<DeviceBuffer> caches) {
    assertTrue(!caches.isEmpty(), "no cache on the device");
    return caches.stream().map(c -> ((XlaBuffer) c).deviceAddress()).toList();
  }

  private static Tensor.F32 row(Tensor.F32 logits, int r, int v) {
    float[] out = new float[v];
    System.arraycopy(logits.data(), r * v, out, 0, v);
    return Tensor.of(out, v);
  }

  private static int argmax(float[] x, int from, int n) {
    int best = 0;
    for (int i = 1; i < n; i++) {
      if (x[from + i] > x[from + best]) {
        best = i;
      }
    }
    return best;
  }
}
