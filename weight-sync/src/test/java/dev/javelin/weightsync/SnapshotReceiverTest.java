package dev.javelin.weightsync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.weightsync.SnapshotRejectedException.Reason;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class SnapshotReceiverTest {

  @Test
  void acceptsNewerAndNeverGoesBack() {
    SnapshotReceiver r = SnapshotReceiver.expecting(WeightSnapshotTest.model(0, WireType.F32));
    r.accept(WeightSnapshotTest.model(1, WireType.F32));
    r.accept(WeightSnapshotTest.model(5, WireType.F32));
    assertEquals(5, r.loadedVersion());
    var stale = WeightSnapshotTest.model(4, WireType.F32);
    assertEquals(
        Reason.STALE,
        assertThrows(SnapshotRejectedException.class, () -> r.accept(stale)).reason());
    var same = WeightSnapshotTest.model(5, WireType.F32);
    assertEquals(
        Reason.STALE, assertThrows(SnapshotRejectedException.class, () -> r.accept(same)).reason());
    assertEquals(5, r.loadedVersion());
  }

  @Test
  void afterARewindAnOlderVersionIsAcceptedAndThenOrderHoldsAgain() {
    SnapshotReceiver r = SnapshotReceiver.expecting(WeightSnapshotTest.model(0, WireType.F32));
    r.accept(WeightSnapshotTest.model(7, WireType.F32));
    r.rewind();
    assertEquals(-1, r.loadedVersion());
    r.accept(WeightSnapshotTest.model(6, WireType.F32));
    assertEquals(6, r.loadedVersion());
    var stale = WeightSnapshotTest.model(5, WireType.F32);
    assertEquals(
        Reason.STALE,
        assertThrows(SnapshotRejectedException.class, () -> r.accept(stale)).reason());
  }

  @Test
  void publisherRepublishesAnOlderVersionAfterARewind() {
    InProcessTransport t = new InProcessTransport(false);
    WeightPublisher p = new WeightPublisher(t);
    p.publish(WeightSnapshotTest.model(7, WireType.F32));
    p.rewind();
    assertEquals(0, t.liveVersions(), "the rewound version is released");
    SnapshotHandle h6 = p.publish(WeightSnapshotTest.model(6, WireType.F32));
    assertEquals(6, t.fetch(h6).version());
    assertThrows(
        IllegalArgumentException.class, () -> p.publish(WeightSnapshotTest.model(6, WireType.F32)));
  }

  @Test
  void rejectsShapeNameAndTypeMismatches() {
    SnapshotReceiver r = SnapshotReceiver.expecting(WeightSnapshotTest.model(0, WireType.F32));
    var wrongShape =
        WeightSnapshot.builder(1, WireType.F32)
            .add("model.embed_tokens.weight", new int[] {8, 16}, new float[128])
            .add("model.norm.weight", new int[] {8}, new float[8])
            .add("lm_head.weight", new int[] {16, 8}, new float[128])
            .build();
    var e = assertThrows(SnapshotRejectedException.class, () -> r.accept(wrongShape));
    assertEquals(Reason.LAYOUT, e.reason());
    assertTrue(e.getMessage().contains("embed_tokens"), e.getMessage());
    var wrongType = WeightSnapshotTest.model(2, WireType.BF16);
    assertEquals(
        Reason.LAYOUT,
        assertThrows(SnapshotRejectedException.class, () -> r.accept(wrongType)).reason());
    var missing =
        WeightSnapshot.builder(3, WireType.F32)
            .add("model.norm.weight", new int[] {8}, new float[8])
            .build();
    assertEquals(
        Reason.LAYOUT,
        assertThrows(SnapshotRejectedException.class, () -> r.accept(missing)).reason());
    assertEquals(-1, r.loadedVersion());
  }

  @Test
  void rejectsCorruptPayloadByChecksum() {
    SnapshotReceiver r = SnapshotReceiver.expecting(WeightSnapshotTest.model(0, WireType.F32));
    ByteBuffer bytes =
        WeightSnapshotTest.copy(SnapshotCodec.encode(WeightSnapshotTest.model(1, WireType.F32)));
    int last = bytes.capacity() - 1;
    bytes.put(last, (byte) (bytes.get(last) ^ 0x10)); // flip one bit of the last weight
    WeightSnapshot corrupt = SnapshotCodec.decode(bytes);
    var e = assertThrows(SnapshotRejectedException.class, () -> r.accept(corrupt));
    assertEquals(Reason.CHECKSUM, e.reason());
    assertEquals(-1, r.loadedVersion());
  }

  @Test
  void publisherFreesOldVersionsAndTransportRefusesReleased() {
    for (boolean encode : new boolean[] {false, true}) {
      InProcessTransport t = new InProcessTransport(encode);
      WeightPublisher p = new WeightPublisher(t);
      SnapshotHandle h1 = p.publish(WeightSnapshotTest.model(1, WireType.F32));
      SnapshotHandle h2 = p.publish(WeightSnapshotTest.model(2, WireType.F32));
      assertEquals(1, t.liveVersions());
      assertEquals(2, t.fetch(h2).version());
      assertThrows(IllegalStateException.class, () -> t.fetch(h1));
      assertThrows(
          IllegalArgumentException.class,
          () -> p.publish(WeightSnapshotTest.model(2, WireType.F32)));
      assertEquals(h2, p.current().orElseThrow());
    }
  }
}
