package dev.javelin.sampler;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.weightsync.SnapshotCodec;
import dev.javelin.weightsync.SnapshotRejectedException;
import dev.javelin.weightsync.SnapshotRejectedException.Reason;
import dev.javelin.weightsync.WeightSnapshot;
import dev.javelin.weightsync.WireType;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class WeightLoadingTest {
  private static final List<GenerationRequest> REQS =
      TinyPolicy.requests(6, SamplingParams.greedy(8));

  private static int[][] responses(SamplerEngine engine) {
    return engine.generate(REQS).rollouts().stream()
        .map(Rollout::responseIds)
        .toArray(int[][]::new);
  }

  @Test
  void newerSnapshotReplacesTheWeightsAndStampsRollouts() {
    ModelCheckpoint other = TinyPolicy.checkpoint(99);
    int[][] expected;
    try (SamplerEngine reference =
        new SamplerEngine(
            dev.javelin.backend.runtime.PolicyModel.of(
                dev.javelin.backend.Devices.open("cpu"), other),
            SamplerConfig.defaults(),
            0)) {
      expected = responses(reference);
    }
    try (SamplerEngine engine = TinyPolicy.engine(1, 8)) {
      assertFalse(Arrays.deepEquals(expected, responses(engine)), "weights must matter");
      engine.loadWeights(Snapshots.of(other, 5, WireType.F32));
      assertEquals(5, engine.version());
      assertArrayEquals(expected, responses(engine));
      assertEquals(5, engine.generate(REQS).rollouts().get(0).policyVersion());
    }
  }

  @Test
  void staleLayoutAndChecksumFailuresLeaveTheWeightsAlone() {
    try (SamplerEngine engine = TinyPolicy.engine(1, 8)) {
      engine.loadWeights(Snapshots.of(TinyPolicy.checkpoint(2), 3, WireType.BF16));
      int[][] before = responses(engine);

      WeightSnapshot stale = Snapshots.of(TinyPolicy.checkpoint(4), 3, WireType.BF16);
      assertEquals(Reason.STALE, rejection(engine, stale));
      WeightSnapshot f32 = Snapshots.of(TinyPolicy.checkpoint(4), 4, WireType.F32);
      assertEquals(Reason.LAYOUT, rejection(engine, f32));
      ByteBuffer bytes =
          SnapshotCodec.encode(Snapshots.of(TinyPolicy.checkpoint(4), 4, WireType.BF16));
      byte[] corrupt = new byte[bytes.remaining()];
      bytes.duplicate().get(corrupt);
      corrupt[corrupt.length - 3] ^= 0x10;
      WeightSnapshot bad = SnapshotCodec.decode(ByteBuffer.wrap(corrupt));
      assertEquals(Reason.CHECKSUM, rejection(engine, bad));

      assertEquals(3, engine.version());
      assertArrayEquals(before, responses(engine));
    }
  }

  private static Reason rejection(SamplerEngine engine, WeightSnapshot s) {
    return assertThrows(SnapshotRejectedException.class, () -> engine.loadWeights(s)).reason();
  }
}
