package dev.javelin.trainer.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.javelin.trainer.Fixtures;
import dev.javelin.trainer.SftExample;
import dev.javelin.trainer.TrainSample;
import dev.javelin.trainer.TrainerState;
import dev.javelin.trainer.UpdateResult;
import dev.javelin.weightsync.wire.MalformedWireException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TrainerCodecTest {

  @Test
  void samplesRoundTripWithOptionalArrays() {
    List<TrainSample> in = Fixtures.batch(3, 3, 2);
    in.set(0, in.get(0).withOldLogProbs(new float[in.get(0).responseIds().length]));
    float[] ref = new float[in.get(1).responseIds().length];
    Arrays.fill(ref, -0.5f);
    in.set(1, in.get(1).withOldLogProbs(ref).withRefLogProbs(ref));
    assertEquals(in, TrainerCodec.decodeSamples(TrainerCodec.encodeSamples(in)));
  }

  @Test
  void otherMessagesRoundTrip() {
    List<SftExample> ex = List.of(new SftExample(new int[] {1, 2}, new int[] {3}));
    assertEquals(ex, TrainerCodec.decodeExamples(TrainerCodec.encodeExamples(ex)));
    float[][] lp = {{-1f, -2f}, {-0.5f}};
    float[][] back = TrainerCodec.decodeLogProbs(TrainerCodec.encodeLogProbs(lp));
    assertArrayEquals(lp[0], back[0]);
    assertArrayEquals(lp[1], back[1]);
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("actor/pg_loss", -0.25);
    m.put("actor/lr", 1e-6);
    assertEquals(m, TrainerCodec.decodeMetrics(TrainerCodec.encodeMetrics(m)));
    TrainerState s = new TrainerState(12, Map.of("data_order", "{\"epoch\":1}", "step", "12"));
    assertEquals(s, TrainerCodec.decodeState(TrainerCodec.encodeState(s)));
  }

  @Test
  void updateResultsRoundTripWithTheirOldLogProbTime() {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("actor/pg_loss", -0.25);
    m.put("actor/grad_norm", 0.5);
    for (UpdateResult r : List.of(new UpdateResult(m, 0.125), UpdateResult.of(m))) {
      UpdateResult back = TrainerCodec.decodeUpdate(TrainerCodec.encodeUpdate(r));
      assertEquals(List.copyOf(m.keySet()), List.copyOf(back.metrics().keySet()), "order kept");
      assertEquals(r, back);
    }
    assertFalse(
        TrainerCodec.decodeUpdate(TrainerCodec.encodeUpdate(UpdateResult.of(m))).tookOldLogProbs());
    byte[] ok = TrainerCodec.encodeUpdate(new UpdateResult(m, 0.125));
    for (int cut : new int[] {0, 4, 12, ok.length - 1}) {
      assertThrows(
          MalformedWireException.class,
          () -> TrainerCodec.decodeUpdate(Arrays.copyOf(ok, cut)),
          "cut at " + cut);
    }
    assertThrows(
        MalformedWireException.class,
        () -> TrainerCodec.decodeUpdate(TrainerCodec.encodeMetrics(m)),
        "metrics are not an update result");
  }

  @Test
  void truncatedTrailingAndForeignBytesAreRejected() {
    byte[] ok = TrainerCodec.encodeSamples(Fixtures.batch(4, 2, 2));
    for (int cut : new int[] {0, 3, 8, ok.length / 2, ok.length - 1}) {
      assertThrows(
          MalformedWireException.class,
          () -> TrainerCodec.decodeSamples(Arrays.copyOf(ok, cut)),
          "cut at " + cut);
    }
    assertThrows(
        MalformedWireException.class,
        () -> TrainerCodec.decodeSamples(Arrays.copyOf(ok, ok.length + 1)));
    byte[] metrics = TrainerCodec.encodeMetrics(Map.of("a", 1.0));
    assertThrows(MalformedWireException.class, () -> TrainerCodec.decodeSamples(metrics));
  }

  @Test
  void hugeCountsFailBeforeAllocating() {
    ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0x4A4C5031).putInt(Integer.MAX_VALUE);
    assertThrows(MalformedWireException.class, () -> TrainerCodec.decodeLogProbs(b.array()));
  }

  @Test
  void inconsistentSamplesAreRejectedWithTheirIndex() {
    List<TrainSample> in = Fixtures.batch(5, 1, 2);
    byte[] bytes = TrainerCodec.encodeSamples(in);
    // Corrupt the first sample's response length field so its arrays disagree.
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int uidLen = b.getInt(8);
    int promptLenAt = 12 + uidLen;
    int promptLen = b.getInt(promptLenAt);
    int responseLenAt = promptLenAt + 4 + 4 * promptLen;
    b.putInt(responseLenAt, b.getInt(responseLenAt) + 1);
    assertThrows(MalformedWireException.class, () -> TrainerCodec.decodeSamples(bytes));
  }
}
