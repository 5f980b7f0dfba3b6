package dev.javelin.backend.xla;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.runtime.GreedyDecode;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.backend.runtime.SlotDecoder;
import dev.javelin.backend.spmd.Mesh;
import dev.javelin.backend.spmd.Sharding;
import dev.javelin.backend.testing.RelError;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The sampler path ({@link SlotDecoder}: prefill, decode, row splice and compaction) with the KV
 * cache split by heads over {@code tp} on {@code xla:cpu} devices, against one device.
 */
class XlaShardedDecodeTest {
  /** Logits tp=2 vs one device; measured: see the printed worst error. */
  private static final double TOL = 1e-5;

  private static final List<int[]> PROMPTS =
      List.of(
          new int[] {3, 17, 42},
          new int[] {8, 1, 30, 4, 5},
          new int[] {3, 17, 42},
          new int[] {60, 2, 9, 9});

  private static XlaDevice xla;
  private static ModelCheckpoint checkpoint;

  @BeforeAll
  static void open() {
    xla = XlaTestFixtures.openFourDevices();
    checkpoint = XlaShardedPolicyTest.checkpoint();
  }

  @AfterAll
  static void close() {
    XlaTestFixtures.closeFourDevices(xla);
  }

  @Test
  void greedyDecodingOnTp2IsTokenIdenticalToOneDevice() {
    greedyMatches("tp=2", DType.F32);
  }

  @Test
  void greedyDecodingOnDp2Tp2IsTokenIdenticalToOneDevice() {
    greedyMatches("dp=2,tp=2", DType.F32);
  }

  @Test
  void bf16GreedyDecodingOnTp2IsTokenIdenticalToOneDevice() {
    greedyMatches("tp=2", DType.BF16);
  }

  @Test
  void spliceAndCompactionKeepTheHeadSplitCacheAndMatchOneDevice() {
    Mesh tp = XlaShardedPolicyTest.mesh(xla, "tp=2");
    try (PolicyModel one = PolicyModel.of(xla, checkpoint, DType.F32, null);
        PolicyModel two = PolicyModel.of(xla, checkpoint, DType.F32, tp);
        SlotDecoder a = SlotDecoder.open(one, 4, 24);
        SlotDecoder b = SlotDecoder.open(two, 4, 24)) {
      double worst = RelError.of(a.prefill(PROMPTS), b.prefill(PROMPTS), null); // shared prompts
      for (DeviceBuffer cache : b.cacheOnDevice()) {
        ShardedBuffer s = (ShardedBuffer) cache;
        assertEquals(Sharding.split(1, "tp"), s.sharding(), "KV cache split by heads");
      }
      int[] pos = {3, 5, 3, 4};
      boolean[] active = {true, true, true, true};
      int[] tokens = {5, 6, 7, 8};
      worst = Math.max(worst, stepBoth(a, b, tokens, pos, active));
      // rows 1 and 3 take new requests, spliced into the cache
      List<int[]> fresh = List.of(new int[] {11, 12}, new int[] {13, 14, 15});
      int[] targets = {1, 3};
      worst =
          Math.max(
              worst,
              RelError.of(a.prefillRows(targets, fresh), b.prefillRows(targets, fresh), null));
      pos = new int[] {4, 2, 4, 3};
      worst = Math.max(worst, stepBoth(a, b, tokens, pos, active));
      // two rows remain: the cache shrinks to them
      int[] keep = {3, 0};
      a.compact(keep);
      b.compact(keep);
      worst =
          Math.max(
              worst,
              stepBoth(a, b, new int[] {9, 10}, new int[] {4, 5}, new boolean[] {true, true}));
      System.out.printf("tp=2 slot decoder: worst logits rel %.2e%n", worst);
      assertTrue(worst <= TOL, "logits rel error " + worst);
    }
  }

  private static double stepBoth(
      SlotDecoder a, SlotDecoder b, int[] tokens, int[] pos, boolean[] active) {
    return RelError.of(a.step(tokens, pos, active), b.step(tokens, pos, active), null);
  }

  private static void greedyMatches(String spec, DType decode) {
    Mesh mesh = XlaShardedPolicyTest.mesh(xla, spec);
    try (PolicyModel one = PolicyModel.of(xla, checkpoint, DType.F32, null);
        PolicyModel sharded = PolicyModel.of(xla, checkpoint, DType.F32, mesh)) {
      List<int[]> x = GreedyDecode.generate(one, PROMPTS, 12, -1, decode);
      List<int[]> y = GreedyDecode.generate(sharded, PROMPTS, 12, -1, decode);
      for (int i = 0; i < x.size(); i++) {
        assertArrayEquals(x.get(i), y.get(i), spec + " " + decode + " continuation of prompt " + i);
      }
      System.out.printf(
          "%s %s greedy: %d prompts x %d tokens identical%n",
          spec, decode, x.size(), x.get(0).length);
    }
  }
}
