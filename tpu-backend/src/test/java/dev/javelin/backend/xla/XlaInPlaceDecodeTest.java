package dev.javelin.backend.xla;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.runtime.GreedyDecode;
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

  /** bf16 logits xla:cpu vs cpu: measured 0.0155 (the two round some sums differently). */
  private static final double BF16_TOL = 0.05;

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
        int[] next = {GreedyDecode.argmax(la.data(), 0, v), GreedyDecode.argmax(la.data(), v, v)};
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

  /**
   * bf16 decoding on {@code xla:cpu}: the cache is bf16 on the device, half the bytes the plugin
   * reports for the f32 cache, written in place, and the logits follow the {@code cpu} engine's
   * bf16 decoding.
   */
  @Test
  void bf16CacheIsHalfTheBytesAndMatchesCpu() {
    List<int[]> prompts = List.of(new int[] {3, 17, 42}, new int[] {8, 1, 30, 4, 5});
    try (Device cpu = Devices.open("cpu");
        XlaDevice xla = (XlaDevice) Devices.open("xla:cpu");
        PolicyModel onCpu = PolicyModel.load(cpu, checkpoint);
        PolicyModel onXla = PolicyModel.load(xla, checkpoint);
        SlotDecoder f32 = SlotDecoder.open(onXla, ROWS, 24);
        SlotDecoder a = SlotDecoder.open(onCpu, ROWS, 24, DType.BF16);
        SlotDecoder b = SlotDecoder.open(onXla, ROWS, 24, DType.BF16)) {
      f32.prefill(prompts);
      Tensor.F32 la = a.prefill(prompts);
      double worst = RelError.of(la, b.prefill(prompts), null);
      long f32Bytes = onDeviceBytes(f32.cacheOnDevice());
      long bf16Bytes = onDeviceBytes(b.cacheOnDevice());
      b.cacheOnDevice().forEach(c -> assertEquals(DType.BF16, c.dtype()));
      assertEquals(f32Bytes, 2 * bf16Bytes, "bf16 KV cache bytes on the device");
      List<Long> where = addresses(b.cacheOnDevice());
      int v = onCpu.config().vocabSize();
      int[] pos = {prompts.get(0).length, prompts.get(1).length};
      boolean[] active = {true, true};
      for (int s = 0; s < STEPS; s++) {
        int[] next = {GreedyDecode.argmax(la.data(), 0, v), GreedyDecode.argmax(la.data(), v, v)};
        Tensor.F32 lb = b.step(next, pos, active);
        la = a.step(next, pos, active);
        worst = Math.max(worst, RelError.of(la, lb, null));
        assertEquals(where, addresses(b.cacheOnDevice()), "step " + s + " moved the cache");
        pos[0]++;
        pos[1]++;
      }
      System.out.printf(
          "xla:cpu KV cache (qwen2-tiny, %d rows x %d positions): f32 %d B, bf16 %d B;"
              + " bf16 logits vs cpu bf16: worst rel %.3g%n",
          ROWS, f32.capacity(), f32Bytes, bf16Bytes, worst);
      assertTrue(worst < BF16_TOL, "bf16 logits xla:cpu vs cpu: " + worst);
    }
  }

  private static long onDeviceBytes(List<DeviceBuffer> caches) {
    return caches.stream().mapToLong(c -> ((XlaBuffer) c).onDeviceBytes()).sum();
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
}
