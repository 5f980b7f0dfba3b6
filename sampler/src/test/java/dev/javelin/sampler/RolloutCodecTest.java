package dev.javelin.sampler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.weightsync.wire.MalformedWireException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RolloutCodecTest {
  private static final SamplingParams PARAMS =
      new SamplingParams(0.7, 20, 0.95, 0.05, 64, new int[] {2, 151643}, false);

  private static List<GenerationRequest> requests() {
    return List.of(
        new GenerationRequest("r0", "p0", new int[] {1, 2, 3}, PARAMS, 42),
        new GenerationRequest("r1-é", "p0", new int[] {9}, SamplingParams.greedy(8, 5), -7));
  }

  private static GenerationResult result() {
    List<Rollout> rollouts =
        List.of(
            new Rollout(
                "r0",
                "p0",
                new int[] {1, 2},
                new int[] {7, 2},
                new float[] {-0.5f, -1.25f},
                FinishReason.STOP,
                3,
                0.25),
            new Rollout(
                "r1", "p0", new int[] {4}, new int[0], new float[0], FinishReason.LENGTH, 3, 0.0));
    return new GenerationResult(rollouts, SamplerMetrics.of(rollouts, 1.5, 1, 4, 2));
  }

  @Test
  void requestsRoundTrip() {
    assertEquals(requests(), RolloutCodec.decodeRequests(RolloutCodec.encodeRequests(requests())));
  }

  @Test
  void resultsRoundTrip() {
    GenerationResult r = result();
    assertEquals(r, RolloutCodec.decodeResult(RolloutCodec.encodeResult(r)));
  }

  @Test
  void everyTruncationIsRejected() {
    byte[] req = RolloutCodec.encodeRequests(requests());
    byte[] res = RolloutCodec.encodeResult(result());
    for (int n = 0; n < req.length; n++) {
      byte[] cut = Arrays.copyOf(req, n);
      assertThrows(MalformedWireException.class, () -> RolloutCodec.decodeRequests(cut));
    }
    for (int n = 0; n < res.length; n++) {
      byte[] cut = Arrays.copyOf(res, n);
      assertThrows(MalformedWireException.class, () -> RolloutCodec.decodeResult(cut));
    }
  }

  @Test
  void wrongMagicTrailingBytesAndHugeCountsAreRejected() {
    byte[] res = RolloutCodec.encodeResult(result());
    assertThrows(MalformedWireException.class, () -> RolloutCodec.decodeRequests(res));
    byte[] longer = Arrays.copyOf(res, res.length + 1);
    assertThrows(MalformedWireException.class, () -> RolloutCodec.decodeResult(longer));
    byte[] req = RolloutCodec.encodeRequests(requests());
    ByteBuffer.wrap(req).order(ByteOrder.LITTLE_ENDIAN).putInt(8, Integer.MAX_VALUE);
    MalformedWireException e =
        assertThrows(MalformedWireException.class, () -> RolloutCodec.decodeRequests(req));
    assertTrue(e.getMessage().contains("count"), e.getMessage());
  }

  @Test
  void invalidValuesAreRejectedByTheRecords() {
    SamplingParams ok = SamplingParams.sample(1.0, 4);
    byte[] req =
        RolloutCodec.encodeRequests(List.of(new GenerationRequest("a", "b", new int[] {1}, ok, 0)));
    // the temperature f64 follows magic, format, count, 2 strings of 1 byte and 1 prompt id
    int temperatureAt = 12 + 5 + 5 + 8;
    ByteBuffer.wrap(req).order(ByteOrder.LITTLE_ENDIAN).putDouble(temperatureAt, -1.0);
    MalformedWireException e =
        assertThrows(MalformedWireException.class, () -> RolloutCodec.decodeRequests(req));
    assertTrue(e.getMessage().contains("temperature"), e.getMessage());
  }
}
